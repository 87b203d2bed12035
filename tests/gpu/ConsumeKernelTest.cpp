// SPDX-License-Identifier: GPL-3.0-or-later
// The compute kernel: it runs for the configured time on the GPU's clock, and it reads every byte
// of the batch, so its checksum proves the bytes arrived intact.
#include <cstring>

#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;
using test::fill_random;

class ConsumeKernel : public CudaDeviceTest {};

TEST_F(ConsumeKernel, RunsForTheConfiguredTimeOnTheGpuClock) {
    constexpr std::size_t kBytes = 1 << 20;
    device->prepare(kBytes);
    PinnedAllocation host = device->allocate_pinned(kBytes);
    fill_random(host.ptr, kBytes);
    for (const double gpu_us : {100.0, 1000.0, 10000.0}) {
        for (int repeat = 0; repeat < 5; ++repeat) {
            const OpId copy = device->copy_to_device({host.ptr, kBytes, true}, 0);
            const OpId compute = device->launch_compute(copy, 0, gpu_us);
            const ConsumeRecord record = device->kernel_record(compute);
            const double spin_us = static_cast<double>(record.exit_ns - record.spin_start_ns) / 1e3;
            EXPECT_GE(spin_us, gpu_us) << "kernel of " << gpu_us << " us";
            EXPECT_LE(spin_us, gpu_us * 1.02) << "kernel of " << gpu_us << " us";
            std::vector<CompletedOp> done;
            device->collect_completed(done);
        }
    }
    device->free_pinned(host);
}

TEST_F(ConsumeKernel, ChecksumMatchesTheHostBytesForPinnedAndPageableSources) {
    // Odd sizes too: the kernel reads 16 bytes at a time and must not miss the tail.
    for (const std::size_t bytes : {std::size_t{4096}, std::size_t{(1 << 20) + 7}, std::size_t{38535168}}) {
        device->prepare(bytes);
        PinnedAllocation pinned = device->allocate_pinned(bytes);
        std::vector<unsigned char> pageable(bytes);
        for (const bool from_pinned : {true, false}) {
            void* source = from_pinned ? pinned.ptr : pageable.data();
            fill_random(source, bytes);
            const OpId copy = device->copy_to_device({source, bytes, from_pinned}, 1);
            const OpId compute = device->launch_compute(copy, 1, 0);
            EXPECT_EQ(device->kernel_record(compute).checksum, consume_checksum(source, bytes))
                << bytes << " bytes from " << (from_pinned ? "pinned" : "pageable") << " memory";
        }
        std::vector<CompletedOp> done;
        device->collect_completed(done);
        device->free_pinned(pinned);
    }
}

TEST_F(ConsumeKernel, ChecksumCatchesAChangedByte) {
    constexpr std::size_t kBytes = 1 << 16;
    device->prepare(kBytes);
    PinnedAllocation host = device->allocate_pinned(kBytes);
    fill_random(host.ptr, kBytes);
    const std::uint64_t expected = consume_checksum(host.ptr, kBytes);
    static_cast<unsigned char*>(host.ptr)[kBytes - 1] ^= 0x40;
    const OpId compute = device->launch_compute(device->copy_to_device({host.ptr, kBytes, true}, 2), 2, 0);
    EXPECT_NE(device->kernel_record(compute).checksum, expected);
    device->free_pinned(host);
}

}  // namespace
}  // namespace pinscope
