#include "device/cuda/StreamHold.h"

namespace pinscope {
namespace {

__device__ __forceinline__ unsigned long long gpu_clock_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

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
