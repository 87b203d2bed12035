// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memory/PageLockedMemory.h"

#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace pinscope {
namespace {

// The system calls themselves: the sanitizers' runtimes replace mlock and munlock with no-ops, which
// would leave registered memory locked under ASan (mlock2 is not replaced).
bool sys_mlock(void* ptr, std::size_t bytes, unsigned flags) { return syscall(SYS_mlock2, ptr, bytes, flags) == 0; }
bool sys_munlock(void* ptr, std::size_t bytes) { return syscall(SYS_munlock, ptr, bytes) == 0; }

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

}  // namespace

std::size_t round_to_pages(std::size_t bytes) { return (bytes + page_size() - 1) / page_size() * page_size(); }

void* map_pages(std::size_t bytes) {
    const std::size_t length = round_to_pages(bytes);
    void* ptr = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED)
        throw DeviceError("mmap of " + std::to_string(length) + " bytes failed: " + std::strerror(errno));
    return ptr;
}

PinnedAllocation map_locked(std::size_t bytes, LockTiming timing) {
    const std::size_t length = round_to_pages(bytes);
    void* ptr = map_pages(length);
    return PinnedAllocation{ptr, length, lock_range(ptr, length, timing)};
}

void unmap_locked(const PinnedAllocation& allocation) {
    if (allocation.ptr != nullptr) munmap(allocation.ptr, round_to_pages(allocation.bytes));
}

bool lock_range(void* ptr, std::size_t bytes, LockTiming timing) {
    return sys_mlock(ptr, bytes, timing == LockTiming::Now ? 0u : MLOCK_ONFAULT);
}

void unlock_range(void* ptr, std::size_t bytes) { sys_munlock(ptr, bytes); }

std::uint64_t memlock_limit_bytes() {
    rlimit limit{};
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
    return limit.rlim_cur;
}

bool memlock_limit_exempt() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (syscall(SYS_capget, &header, data) != 0) return false;
    return (data[CAP_IPC_LOCK / 32].effective & (1u << (CAP_IPC_LOCK % 32))) != 0;
}

void PageableDeleter::operator()(std::byte* p) const {
    if (mapped_bytes > 0)
        munmap(p, mapped_bytes);
    else
        std::free(p);
}

PageableBuffer allocate_pageable(std::size_t bytes) {
    void* ptr = std::aligned_alloc(page_size(), round_to_pages(bytes == 0 ? 1 : bytes));
    if (ptr == nullptr) throw std::bad_alloc();
    return PageableBuffer(static_cast<std::byte*>(ptr));
}

PageableBuffer allocate_batch(std::size_t bytes, BatchMemory memory) {
    if (memory == BatchMemory::Allocator) {
        constexpr std::size_t kTorchCpuAlignment = 64;
        void* ptr = std::aligned_alloc(kTorchCpuAlignment, (std::max<std::size_t>(bytes, 1) + kTorchCpuAlignment - 1) / kTorchCpuAlignment * kTorchCpuAlignment);
        if (ptr == nullptr) throw std::bad_alloc();
        return PageableBuffer(static_cast<std::byte*>(ptr));
    }
    const std::size_t length = round_to_pages(bytes == 0 ? 1 : bytes);
    void* ptr = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED) throw std::bad_alloc();
    return PageableBuffer(static_cast<std::byte*>(ptr), PageableDeleter{length});
}

}  // namespace pinscope
