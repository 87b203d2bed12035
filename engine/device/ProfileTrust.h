// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How far to trust a profile, in words for the devices list, the window and validate: how many
// machines its figures come from, how far those differed, and what validate found against a GPU.
#include <string>

#include "engine/device/HardwareProfile.h"

namespace pinscope {

// One or two sentences; names `pinscope-cli validate` where nothing was validated yet.
std::string trust_summary(const HardwareProfile& profile);

}  // namespace pinscope
