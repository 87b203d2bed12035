// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opens the copy timer of the device a string names, for the bandwidth sweep.
#include <memory>
#include <string>

#include "engine/device/CopyTimer.h"

namespace pinscope {

// "cuda[:N]" or "emulated[:PROFILE]", already resolved (resolve_device; "auto" is resolved here
// too, without its note). Throws DeviceError (no such GPU, no CUDA in this build) or ConfigError
// (field "device": not a device name, or a bad profile).
std::unique_ptr<CopyTimer> open_copy_timer(const std::string& device);

}  // namespace pinscope
