// SPDX-License-Identifier: GPL-3.0-or-later
// Which page-locking calls wait for the GPU, as calibrate measures it on streams of its own, holds
// for the pipeline's device too: behind a kernel the run launched, a call calibrate says waits
// returns after that kernel, and one it says does not returns long before.
#include <cstdint>
#include <iostream>
#include <memory>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/device/cuda/CudaCalibrationProbe.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

class CudaPageLockingWaits : public CudaDeviceTest {};

constexpr double kKernelUs = 100'000;
constexpr std::size_t kBytes = 4 << 20;

TEST_F(CudaPageLockingWaits, TheRunsDeviceWaitsWhereCalibrateSaysTheDriverDoes) {
    const PageLockingWaits measured = open_cuda_calibration_probe(0)->page_locking_waits();
    device->prepare(kBytes);
    const PinnedAllocation source = device->allocate_pinned(4096);
    const auto held_us = [&](auto call) {
        const OpId copy = device->copy_to_device({source.ptr, 4096, true}, 0);
        device->launch_compute(copy, 0, kKernelUs);
        const TimeNs start = now_ns();
        call();
        const double us = static_cast<double>(now_ns() - start) / 1e3;
        device->synchronize();
        return us;
    };
    const PinnedAllocation allocation = device->allocate_pinned(kBytes);
    const double free_us = held_us([&] { device->free_pinned(allocation); });
    std::vector<std::byte> buffer(2 * kBytes);
    void* page = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(buffer.data()) + 4095) & ~std::uintptr_t{4095});
    const double register_us = held_us([&] { device->register_host(page, kBytes); });
    const double unregister_us = held_us([&] { device->unregister_host(page, kBytes); });
    device->free_pinned(source);
    std::cout << "calibrate: cudaHostAlloc " << measured.host_alloc << ", cudaFreeHost " << measured.free_host
              << ", cudaHostRegister " << measured.host_register << ", cudaHostUnregister " << measured.host_unregister
              << ", one at a time " << measured.one_at_a_time
              << "; behind a 100 ms kernel: free " << free_us << " us, register " << register_us << " us, unregister "
              << unregister_us << " us\n";
    EXPECT_EQ(free_us > kKernelUs / 2, measured.free_host);
    EXPECT_EQ(register_us > kKernelUs / 2, measured.host_register);
    EXPECT_EQ(unregister_us > kKernelUs / 2, measured.host_unregister);
}

}  // namespace
}  // namespace pinscope
