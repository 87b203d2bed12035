// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of a device string ("auto", "emulated[:PROFILE]" or "cuda[:N]"), shared by everything
// that opens devices (the loader, the bandwidth sweep, calibration) or plans for one (NUMA).
#include <string>

namespace pinscope {

// Throws ConfigError (field "device") unless `device` is "auto", "emulated[:PROFILE]" or "cuda[:N]".
void check_device_name(const std::string& device);
int cuda_ordinal(const std::string& device);              // "cuda" -> 0, "cuda:3" -> 3
std::string emulated_profile(const std::string& device);  // "emulated" -> kDefaultProfile, "emulated:X" -> X

}  // namespace pinscope
