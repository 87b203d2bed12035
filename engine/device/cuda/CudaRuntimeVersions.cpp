// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaRuntimeVersions.h"

#include <cuda_runtime_api.h>

namespace pinscope {

CudaVersions cuda_versions_present() {
    CudaVersions versions;
    if (cudaRuntimeGetVersion(&versions.runtime) != cudaSuccess) (void)cudaGetLastError();
    if (cudaDriverGetVersion(&versions.driver) != cudaSuccess) {
        (void)cudaGetLastError();
        versions.driver = 0;
    }
    return versions;
}

}  // namespace pinscope
