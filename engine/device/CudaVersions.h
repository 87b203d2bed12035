// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA runtime this program carries and the newest CUDA version the installed driver supports,
// as CUDA numbers them (12040 is 12.4). Zero where there is none.
namespace pinscope {

struct CudaVersions {
    int runtime = 0;  // 0: this build has no CUDA
    int driver = 0;   // 0: no NVIDIA driver (or this build cannot ask)
};

}  // namespace pinscope
