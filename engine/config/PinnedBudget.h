// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How much page-locked memory a configuration may need, and the budget it must fit by default:
// what validation checks before a run locks anything, and what the pinned pool enforces.
#include <cstddef>
#include <cstdint>

namespace pinscope {

struct LoaderConfig;

// The pinned pool's block size for a request: the next power of two.
std::size_t round_up_pow2(std::size_t bytes);

// Upper bound on the pinned bytes a configuration can hold at once: every outstanding batch, the
// batches queued on the device and the one the consumer is copying, each in a block of its size.
struct PinnedBound {
    std::uint64_t blocks = 0;
    std::uint64_t block_bytes = 0;
    std::uint64_t bytes() const { return blocks * block_bytes; }
};
PinnedBound worst_case_pinned(const LoaderConfig& config);
std::uint64_t default_pinned_budget();   // a quarter of physical memory
std::uint64_t physical_memory_bytes();

}  // namespace pinscope
