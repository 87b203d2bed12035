// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "engine/device/CudaVersions.h"

namespace pinscope {

// Asks the CUDA runtime; never throws (no driver gives driver 0).
CudaVersions cuda_versions_present();

}  // namespace pinscope
