// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Times host<->device copies on a real GPU the way nvbandwidth does, for `pinscope-cli bandwidth`
// and `calibrate`.
#include <memory>

#include "engine/device/CopyTimer.h"

namespace pinscope {

std::unique_ptr<CopyTimer> open_cuda_copy_timer(int ordinal);

}  // namespace pinscope
