// SPDX-License-Identifier: GPL-3.0-or-later
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/memory/PageLockedMemory.h"

namespace pinscope {
namespace {

// Whether every page of the range is mapped in this process (mincore fails with ENOMEM otherwise).
bool mapped(const void* ptr, std::size_t bytes) {
    std::vector<unsigned char> resident(round_to_pages(bytes) / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
    if (mincore(const_cast<void*>(ptr), round_to_pages(bytes), resident.data()) == 0) return true;
    EXPECT_EQ(errno, ENOMEM);
    return false;
}

TEST(PageableMemory, AWorkersBatchIsPagesOfItsOwnThatGoBackToTheSystemWhenItIsFreed) {
    constexpr std::size_t kBytes = (3u << 20) + 5;  // not a whole number of pages
    PageableBuffer batch = allocate_batch(kBytes, BatchMemory::NewPages);
    const void* at = batch.get();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(at) % static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)), 0u);
    std::memset(batch.get(), 0x5A, kBytes);
    EXPECT_EQ(std::to_integer<int>(batch[kBytes - 1]), 0x5A);
    EXPECT_TRUE(mapped(at, kBytes));
    batch.reset();
    // Unmapped at once, whatever its size: the next batch faults in new pages, as the model says.
    EXPECT_FALSE(mapped(at, kBytes));
}

// Aligned as PyTorch's CPU allocator aligns, so that glibc reuses it as it reuses PyTorch's.
TEST(PageableMemory, TheConsumersOwnBatchComesFromTheAllocatorAlignedAsPyTorchs) {
    PageableBuffer buffer = allocate_batch(4096 * 3 + 1, BatchMemory::Allocator);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.get()) % 64, 0u);
    EXPECT_EQ(buffer.get_deleter().mapped_bytes, 0u);
    std::memset(buffer.get(), 1, 4096 * 3 + 1);
}

}  // namespace
}  // namespace pinscope
