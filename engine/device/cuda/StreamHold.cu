// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/StreamHold.h"

#include "engine/device/cuda/GpuClock.cuh"

namespace pinscope {
namespace {

__global__ void hold_kernel(volatile int* flag, unsigned long long timeout_ns) {
    const unsigned long long until = gpu_clock_ns() + timeout_ns;
    while (*flag == 0 && gpu_clock_ns() < until) {
    }
}

}  // namespace

cudaError_t launch_stream_hold(volatile int* flag, std::uint64_t timeout_ns, cudaStream_t stream) {
    hold_kernel<<<1, 1, 0, stream>>>(flag, timeout_ns);
    return cudaGetLastError();
}

}  // namespace pinscope
