// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One profile for machines of one kind from the calibrations of several: each figure the median of
// theirs, and the profile's trust says how many machines and how far apart they were.
// `pinscope-cli combine-profiles` writes it.
#include <string>
#include <vector>

#include "engine/device/HardwareProfile.h"

namespace pinscope {

struct NamedProfile {
    std::string label;  // how messages name it: its file
    HardwareProfile profile;
};

// Throws ConfigError naming the profile and the field when two measured a curve every profile has
// (copies, page-locking calls) at different sizes (calibrate them with the same pinscope), or when
// fewer than two are given. A curve only some have is the median at each size of those that measured it there.
HardwareProfile combine_profiles(const std::vector<NamedProfile>& profiles, const std::string& name,
                                 const std::string& command);

}  // namespace pinscope
