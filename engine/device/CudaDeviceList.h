// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA GPUs this machine has, or why there are none.
#include <string>
#include <vector>

#include "engine/device/Device.h"

namespace pinscope {

struct CudaDeviceList {
    std::vector<DeviceInfo> devices;
    std::string why_none;  // set when the list is empty: no CUDA in this build, no driver, no GPU
};

}  // namespace pinscope
