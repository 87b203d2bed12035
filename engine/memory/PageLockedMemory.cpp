#include "memory/PageLockedMemory.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace pinscope {
namespace {

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
std::size_t round_to_pages(std::size_t bytes) { return (bytes + page_size() - 1) / page_size() * page_size(); }

}  // namespace

PinnedAllocation map_locked(std::size_t bytes, LockTiming timing) {
    const std::size_t length = round_to_pages(bytes);
    void* ptr = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED)
        throw DeviceError("mmap of " + std::to_string(length) + " bytes failed: " + std::strerror(errno));
    return PinnedAllocation{ptr, length, lock_range(ptr, length, timing)};
}

void unmap_locked(const PinnedAllocation& allocation) {
    if (allocation.ptr != nullptr) munmap(allocation.ptr, round_to_pages(allocation.bytes));
}

bool lock_range(void* ptr, std::size_t bytes, LockTiming timing) {
    return (timing == LockTiming::Now ? mlock(ptr, bytes) : mlock2(ptr, bytes, MLOCK_ONFAULT)) == 0;
}

void unlock_range(void* ptr, std::size_t bytes) { munlock(ptr, bytes); }

std::uint64_t memlock_limit_bytes() {
    rlimit limit{};
    if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
    return limit.rlim_cur;
}

void FreeDeleter::operator()(std::byte* p) const { std::free(p); }

PageableBuffer allocate_pageable(std::size_t bytes) {
    void* ptr = std::aligned_alloc(page_size(), round_to_pages(bytes == 0 ? 1 : bytes));
    if (ptr == nullptr) throw std::bad_alloc();
    return PageableBuffer(static_cast<std::byte*>(ptr));
}

}  // namespace pinscope
