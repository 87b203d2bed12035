// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Page-locking on the host without CUDA: mmap + mlock for new memory, mlock for existing memory.
// The emulated device uses these so that its pinned footprint is real. When the OS refuses
// (RLIMIT_MEMLOCK without CAP_IPC_LOCK), the memory is kept unlocked and reported as such.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/device/Device.h"

namespace pinscope {

// Now: every page is faulted in and locked before the call returns (what cudaHostAlloc does).
// OnFault: the range counts as locked at once, pages are locked as they are first touched.
enum class LockTiming { Now, OnFault };

// Throws DeviceError when the memory cannot be mapped at all.
PinnedAllocation map_locked(std::size_t bytes, LockTiming timing = LockTiming::Now);
// Anonymous memory of whole pages, not locked (for placing before locking); throws DeviceError.
void* map_pages(std::size_t bytes);
std::size_t round_to_pages(std::size_t bytes);
void unmap_locked(const PinnedAllocation& allocation);
bool lock_range(void* ptr, std::size_t bytes, LockTiming timing = LockTiming::Now);
void unlock_range(void* ptr, std::size_t bytes);

// RLIMIT_MEMLOCK's soft limit in bytes; UINT64_MAX when unlimited.
std::uint64_t memlock_limit_bytes();
// Whether this process may lock memory beyond that limit (CAP_IPC_LOCK, which root has).
bool memlock_limit_exempt();

// Pageable memory, page-aligned so that it can be registered in place: from the C library's
// allocator, or mapped for the buffer alone (then `mapped_bytes` is its length, and freeing it
// unmaps it).
struct PageableDeleter {
    std::size_t mapped_bytes = 0;
    void operator()(std::byte* p) const;
};
using PageableBuffer = std::unique_ptr<std::byte[], PageableDeleter>;
// From the C library's allocator, which may hand back memory freed a moment ago.
PageableBuffer allocate_pageable(std::size_t bytes);  // throws std::bad_alloc

// Where a collated batch's buffer comes from, as in PyTorch.
enum class BatchMemory : std::uint8_t {
    // A worker's batch: pages mapped for it alone, which fault in as the collate writes them and go
    // back to the system when it is freed (munmap), at every size, as PyTorch's workers collate into
    // a new shared-memory segment for every batch. From the allocator instead, a worker's batch
    // would cost what glibc's heuristics made of the batches before it (whether freed memory is
    // reused moves with how many batches are alive and which thread frees them, and between glibc
    // versions), which no profile can say.
    NewPages,
    // The loading thread's own batch with no workers: from the allocator, as torch.stack's is, and
    // aligned as PyTorch's CPU allocator aligns (64 bytes), so glibc reuses the last batch's memory
    // below its mmap threshold as it does PyTorch's (calibrate measures it). Page alignment would
    // not: glibc's threshold then never rises past the next request (glibc 2.36 maps every one).
    Allocator,
};
PageableBuffer allocate_batch(std::size_t bytes, BatchMemory memory);  // throws std::bad_alloc

}  // namespace pinscope
