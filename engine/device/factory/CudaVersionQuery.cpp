// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/factory/CudaVersionQuery.h"

#include "engine/BuildConfig.h"

#if PINSCOPE_HAVE_CUDA
#include "engine/device/cuda/CudaRuntimeVersions.h"
#endif

namespace pinscope {

CudaVersions cuda_versions() {
#if PINSCOPE_HAVE_CUDA
    return cuda_versions_present();
#else
    return {};
#endif
}

}  // namespace pinscope
