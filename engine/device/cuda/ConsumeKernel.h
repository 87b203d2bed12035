// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The compute stream's kernel: it reads every byte of the batch (a checksum, so the reads cannot be
// optimised away and tests can prove the bytes arrived intact), then runs for the configured time
// on the GPU's own clock (%globaltimer), or until the host sets its stop flag. One cooperative
// launch fills every SM.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace pinscope {

// What one launch leaves behind in device memory; tests read it back.
struct ConsumeRecord {
    unsigned long long checksum = 0;       // sum of the batch's little-endian 32-bit words (tail zero-padded)
    unsigned long long entry_ns = 0;       // GPU clock when the first block started
    unsigned long long spin_start_ns = 0;  // GPU clock when every block had finished reading
    unsigned long long exit_ns = 0;        // GPU clock when the last block finished
    unsigned long long stopped_ns = 0;     // GPU clock when a stop cut the run short; 0 if it ran its time
};

struct ConsumeLaunch {
    const void* data = nullptr;
    std::size_t bytes = 0;
    std::uint64_t spin_ns = 0;
    ConsumeRecord* record = nullptr;       // zeroed before this launch
    ConsumeRecord* next_record = nullptr;  // zeroed by this launch for the next one
    const unsigned int* stop = nullptr;    // host-mapped flag (device pointer); non-zero: stop running
};

// Blocks of the cooperative grid that fill the device: SMs x resident blocks per SM.
struct ConsumeGrid {
    int blocks = 0;
    int threads = 0;
};
cudaError_t consume_grid_for_device(int ordinal, ConsumeGrid& grid);

cudaError_t launch_consume(const ConsumeLaunch& launch, const ConsumeGrid& grid, cudaStream_t stream);

// The same checksum on the host, for tests.
std::uint64_t consume_checksum(const void* data, std::size_t bytes);

}  // namespace pinscope
