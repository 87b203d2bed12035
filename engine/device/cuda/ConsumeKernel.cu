// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/ConsumeKernel.h"

#include <cooperative_groups.h>

#include <cstring>

#include "engine/device/cuda/GpuClock.cuh"

namespace pinscope {
namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kMaxBlocksPerSm = 4;
// How often block 0 reads the host's stop flag: each read crosses PCIe, so not at every turn, and
// not in the last stretch of the run, so that a read's latency never makes the kernel overrun.
constexpr unsigned long long kStopPollNs = 20'000;
constexpr unsigned long long kNoPollBeforeEndNs = 10'000;

__device__ __forceinline__ unsigned long long word_sum(uint4 v) {
    return static_cast<unsigned long long>(v.x) + v.y + v.z + v.w;
}

__global__ void __launch_bounds__(kThreads) consume_kernel(ConsumeLaunch launch) {
    cg::grid_group grid = cg::this_grid();
    ConsumeRecord* record = launch.record;
    if (threadIdx.x == 0) atomicCAS(&record->entry_ns, 0ull, gpu_clock_ns());
    if (blockIdx.x == 0 && threadIdx.x == 0 && launch.next_record) *launch.next_record = ConsumeRecord{};

    // Read every byte: 16-byte loads, four in flight per thread.
    const auto* vectors = static_cast<const uint4*>(launch.data);
    const std::size_t count = launch.bytes / sizeof(uint4);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned long long sum = 0;
    for (; i + 3 * stride < count; i += 4 * stride) {
        const uint4 a = __ldg(vectors + i), b = __ldg(vectors + i + stride);
        const uint4 c = __ldg(vectors + i + 2 * stride), d = __ldg(vectors + i + 3 * stride);
        sum += word_sum(a) + word_sum(b) + word_sum(c) + word_sum(d);
    }
    for (; i < count; i += stride) sum += word_sum(__ldg(vectors + i));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const auto* bytes = static_cast<const unsigned char*>(launch.data);
        for (std::size_t b = count * sizeof(uint4); b < launch.bytes; ++b)
            sum += static_cast<unsigned long long>(bytes[b]) << (8 * (b % 4));
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(&record->checksum, sum);

    // Then run for the configured time, measured from the moment the whole batch has been read.
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) record->spin_start_ns = gpu_clock_ns();
    grid.sync();
    // One thread per block runs the clock down. Block 0 also watches the host's stop flag and passes a
    // stop on through the record, which every block watches (a read from L2, not across PCIe).
    if (threadIdx.x == 0) {
        volatile unsigned long long* stopped = &record->stopped_ns;
        const unsigned long long until =
            *static_cast<volatile unsigned long long*>(&record->spin_start_ns) + launch.spin_ns;
        unsigned long long next_poll = 0;
        for (unsigned long long now = gpu_clock_ns(); now < until && *stopped == 0; now = gpu_clock_ns()) {
            if (blockIdx.x == 0 && launch.stop != nullptr && now >= next_poll && now + kNoPollBeforeEndNs < until) {
                if (*static_cast<const volatile unsigned int*>(launch.stop) != 0) *stopped = now;
                next_poll = now + kStopPollNs;
            }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&record->exit_ns, gpu_clock_ns());
}

}  // namespace

cudaError_t consume_grid_for_device(int ordinal, ConsumeGrid& grid) {
    int sms = 0;
    int per_sm = 0;
    cudaError_t error = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ordinal);
    if (error == cudaSuccess)
        error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, consume_kernel, kThreads, 0);
    if (error != cudaSuccess) return error;
    if (per_sm < 1) return cudaErrorCooperativeLaunchTooLarge;
    grid.blocks = sms * (per_sm < kMaxBlocksPerSm ? per_sm : kMaxBlocksPerSm);
    grid.threads = kThreads;
    return cudaSuccess;
}

cudaError_t launch_consume(const ConsumeLaunch& launch, const ConsumeGrid& grid, cudaStream_t stream) {
    ConsumeLaunch arguments = launch;
    void* params[] = {&arguments};
    return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(consume_kernel), dim3(grid.blocks),
                                       dim3(grid.threads), params, 0, stream);
}

std::uint64_t consume_checksum(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint64_t sum = 0;
    std::size_t b = 0;
    for (; b + 4 <= bytes; b += 4) {
        std::uint32_t word;
        std::memcpy(&word, p + b, 4);
        sum += word;
    }
    for (; b < bytes; ++b) sum += static_cast<std::uint64_t>(p[b]) << (8 * (b % 4));
    return sum;
}

}  // namespace pinscope
