// SPDX-License-Identifier: GPL-3.0-or-later
// The caching pool on a real GPU: a block goes back to a batch only once the copy that read it has
// completed, which the kernel's checksum proves: a block rewritten too early would change the bytes
// the GPU received.
#include <cstring>

#include "engine/memory/PinnedPool.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;
using test::fill_random;

class CudaPinnedPool : public CudaDeviceTest {};

TEST_F(CudaPinnedPool, NeverHandsOutABlockBeforeItsCopyCompletes) {
    constexpr std::size_t kBytes = 64 << 20;  // long enough a copy that a wrong reuse would land inside it
    device->prepare(kBytes);
    std::atomic<bool> stop{false};
    int reused_after_completion = 0;
    {
        PinnedPool pool(*device, std::uint64_t{1} << 30);
        for (std::uint64_t batch = 0; batch < 12; ++batch) {
            std::optional<PinnedBlock> block = pool.allocate(kBytes, stop);
            ASSERT_TRUE(block);
            fill_random(block->ptr, kBytes);
            const std::uint64_t sent = consume_checksum(block->ptr, kBytes);
            const OpId copy = device->copy_to_device({block->ptr, kBytes, true}, batch);
            const OpId compute = device->launch_compute(copy, batch, 0);
            pool.release(*block, copy);
            pool.process_events();

            // The next batch asks at once, and writes into whatever it gets, as a worker does.
            std::optional<PinnedBlock> next = pool.allocate(kBytes, stop);
            ASSERT_TRUE(next);
            if (next->ptr == block->ptr) {
                EXPECT_TRUE(device->is_complete(copy)) << "batch " << batch;
            }
            std::memset(next->ptr, 0xA5, kBytes);
            EXPECT_EQ(device->kernel_record(compute).checksum, sent) << "batch " << batch;
            pool.release(*next, 0);

            // Once the copy has completed, the block is reused rather than allocated again.
            pool.process_events();
            std::optional<PinnedBlock> later = pool.allocate(kBytes, stop);
            ASSERT_TRUE(later);
            if (later->ptr == block->ptr || later->ptr == next->ptr) ++reused_after_completion;
            pool.release(*later, 0);
            std::vector<CompletedOp> done;
            device->collect_completed(done);
        }
        EXPECT_EQ(reused_after_completion, 12);
        EXPECT_LE(pool.stats().segment.peak, 3);
    }
    EXPECT_EQ(cuda_pinned_bytes_live(), 0u);
}

}  // namespace
}  // namespace pinscope
