// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opens the calibration probe of the GPU a string names, for `pinscope-cli calibrate`.
#include <memory>
#include <string>

#include "engine/device/CalibrationProbe.h"

namespace pinscope {

// "cuda[:N]" only (resolved; "auto" is resolved here). Throws DeviceError saying that calibration
// needs a real GPU, and why there is none (an emulated device, no CUDA in this build, no GPU),
// or ConfigError (field "device") for a string that names no device.
std::unique_ptr<CalibrationProbe> open_calibration_probe(const std::string& device);

}  // namespace pinscope
