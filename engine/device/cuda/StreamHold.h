// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Holds a stream with a kernel that spins until the host sets a flag, so that copies queued behind
// it start back to back and their timing excludes the host's issue rate (as nvbandwidth does).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace pinscope {

// `flag` is host memory mapped into the device (cudaHostAllocMapped); the kernel also gives up
// after `timeout_ns` on the GPU clock, so a host that never sets the flag cannot hang the GPU.
cudaError_t launch_stream_hold(volatile int* flag, std::uint64_t timeout_ns, cudaStream_t stream);

}  // namespace pinscope
