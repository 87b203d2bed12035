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

// Pageable batch memory, page-aligned so that it can be registered in place.
struct FreeDeleter {
    void operator()(std::byte* p) const;
};
using PageableBuffer = std::unique_ptr<std::byte[], FreeDeleter>;
PageableBuffer allocate_pageable(std::size_t bytes);  // throws std::bad_alloc

}  // namespace pinscope
