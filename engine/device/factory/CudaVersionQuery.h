// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "engine/device/CudaVersions.h"

namespace pinscope {

// The CUDA runtime built in and the driver's CUDA version; zeros in a build without CUDA.
CudaVersions cuda_versions();

}  // namespace pinscope
