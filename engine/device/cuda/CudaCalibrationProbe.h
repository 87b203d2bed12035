// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `pinscope-cli calibrate` measures on a real GPU beyond copy bandwidth.
#include <memory>

#include "engine/device/CalibrationProbe.h"

namespace pinscope {

std::unique_ptr<CalibrationProbe> open_cuda_calibration_probe(int ordinal);

}  // namespace pinscope
