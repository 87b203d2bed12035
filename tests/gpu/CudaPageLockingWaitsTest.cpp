// SPDX-License-Identifier: GPL-3.0-or-later
// Which page-locking calls wait for the GPU, as calibrate measures it on streams of its own, holds
// for the pipeline's device too: behind a kernel the run launched, a call calibrate says waits
// returns after that kernel, and one it says does not returns long before.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <thread>
#include <utility>
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
              << "; behind a 100 ms kernel: free " << free_us << " us, register " << register_us << " us, unregister "
              << unregister_us << " us\n";
    EXPECT_EQ(free_us > kKernelUs / 2, measured.free_host);
    EXPECT_EQ(register_us > kKernelUs / 2, measured.host_register);
    EXPECT_EQ(unregister_us > kKernelUs / 2, measured.host_unregister);
}

// Which calls wait for another thread's allocation, as calibrate measures it with the CUDA API,
// holds for the pipeline's device too (nothing of pinscope's own serialises them): while one thread
// allocates 512 MiB pinned, another's copy and launch return at once or only after it, as calibrate says.
TEST_F(CudaPageLockingWaits, TheRunsDeviceWaitsForAnotherThreadsAllocationWhereCalibrateSaysTheDriverDoes) {
    const auto probe = open_cuda_calibration_probe(0);
    const DriverLock measured = probe->driver_lock(probe->page_locking_waits());
    device->prepare(kBytes);
    const PinnedAllocation source = device->allocate_pinned(4096);
    // How long `call` took, made 2 ms into another thread's allocation, against what was left of it.
    const auto beside_an_allocation = [&](auto call) {
        std::atomic<bool> inside{false};
        TimeNs allocated_at = 0;
        PinnedAllocation big;
        std::thread other([&] {
            inside = true;
            big = device->allocate_pinned(std::size_t{512} << 20);
            allocated_at = now_ns();
        });
        while (!inside) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const TimeNs start = now_ns();
        call();
        const TimeNs end = now_ns();
        other.join();
        device->synchronize();
        device->free_pinned(big);
        return std::pair{static_cast<double>(end - start), static_cast<double>(allocated_at - start)};
    };
    OpId copy = 0;
    const auto [copy_ns, copy_left_ns] = beside_an_allocation([&] { copy = device->copy_to_device({source.ptr, 4096, true}, 0); });
    const auto [launch_ns, launch_left_ns] = beside_an_allocation([&] { device->launch_compute(copy, 0, 10); });
    device->free_pinned(source);
    std::cout << "calibrate: during cudaHostAlloc copies wait " << measured.during_host_alloc.copies << ", launches wait "
              << measured.during_host_alloc.launches << "; the run's device: copy " << copy_ns / 1e3 << " us of "
              << copy_left_ns / 1e3 << " us left, launch " << launch_ns / 1e3 << " us of " << launch_left_ns / 1e3
              << " us left\n";
    ASSERT_GT(copy_left_ns, 10e6);  // the allocation lasted long enough to tell
    ASSERT_GT(launch_left_ns, 10e6);
    EXPECT_EQ(copy_ns > copy_left_ns / 2, measured.during_host_alloc.copies);
    EXPECT_EQ(launch_ns > launch_left_ns / 2, measured.during_host_alloc.launches);
}

// Which calls wait while another thread's cudaHostUnregister waits for the GPU, as calibrate
// measures it, holds for the pipeline's device: behind a 100 ms kernel, one thread unregisters a
// batch while another issues a copy and launches a kernel, which return at once or only after the
// kernel, as calibrate says.
TEST_F(CudaPageLockingWaits, TheRunsDeviceWaitsBesideAWaitingUnregisterWhereCalibrateSaysTheDriverDoes) {
    const auto probe = open_cuda_calibration_probe(0);
    const PageLockingWaits waits = probe->page_locking_waits();
    if (!waits.host_unregister) GTEST_SKIP() << "calibrate: cudaHostUnregister does not wait for the GPU here";
    const DriverLock measured = probe->driver_lock(waits);
    device->prepare(kBytes);
    const PinnedAllocation source = device->allocate_pinned(4096);
    std::vector<std::byte> buffer(2 * kBytes);
    void* page = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(buffer.data()) + 4095) & ~std::uintptr_t{4095});
    // How long `call` took, made 2 ms into another thread's unregister behind a long kernel.
    const auto beside_a_waiting_unregister = [&](auto call) {
        device->register_host(page, kBytes);
        const OpId copy = device->copy_to_device({source.ptr, 4096, true}, 0);
        device->launch_compute(copy, 0, kKernelUs);
        std::atomic<bool> inside{false};
        std::thread other([&] {
            inside = true;
            device->unregister_host(page, kBytes);
        });
        while (!inside) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const TimeNs start = now_ns();
        call();
        const double us = static_cast<double>(now_ns() - start) / 1e3;
        other.join();
        device->synchronize();
        return us;
    };
    OpId copy = 0;
    const double copy_us = beside_a_waiting_unregister([&] { copy = device->copy_to_device({source.ptr, 4096, true}, 0); });
    const double launch_us = beside_a_waiting_unregister([&] { device->launch_compute(copy, 0, 10); });
    device->free_pinned(source);
    std::cout << "calibrate: while cudaHostUnregister waits, copies wait " << measured.while_unregister_waits.copies
              << ", launches wait " << measured.while_unregister_waits.launches << "; the run's device: copy "
              << copy_us << " us, launch " << launch_us << " us beside a 100 ms kernel\n";
    EXPECT_EQ(copy_us > kKernelUs / 2, measured.while_unregister_waits.copies);
    EXPECT_EQ(launch_us > kKernelUs / 2, measured.while_unregister_waits.launches);
}

// A copy whose call waits for another thread's allocation (where the driver holds copies back) shows
// on the timeline from when it could run, not from when its stream reached it: in alloc mode the
// consumer's copies wait behind the pin thread's cudaHostAlloc, which takes milliseconds.
TEST_F(CudaPageLockingWaits, ACopyHeldBackByAnotherThreadsAllocationSpansOnlyItsOwnTransfer) {
    const auto probe = open_cuda_calibration_probe(0);
    const DriverLock measured = probe->driver_lock(probe->page_locking_waits());
    if (!measured.during_host_alloc.copies) GTEST_SKIP() << "calibrate: copies do not wait for an allocation here";
    device->prepare(kBytes);
    const PinnedAllocation source = device->allocate_pinned(4096);
    std::atomic<bool> inside{false};
    PinnedAllocation big;
    std::thread other([&] {
        inside = true;
        big = device->allocate_pinned(std::size_t{512} << 20);
    });
    while (!inside) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const TimeNs issued = now_ns();
    const OpId copy = device->copy_to_device({source.ptr, 4096, true}, 7);
    const TimeNs returned = now_ns();
    other.join();
    device->wait(copy);
    std::vector<CompletedOp> done;
    device->collect_completed(done);
    device->free_pinned(big);
    device->free_pinned(source);
    ASSERT_EQ(done.size(), 1u);
    const double held_us = static_cast<double>(returned - issued) / 1e3;
    const double span_us = static_cast<double>(done[0].end - done[0].start) / 1e3;
    std::cout << "a 4 KiB copy's call held " << held_us << " us by a 512 MiB cudaHostAlloc; its span " << span_us << " us\n";
    ASSERT_GT(held_us, 10'000);  // the call did wait: the span could have covered the wait
    EXPECT_LT(span_us, 1'000);
}

}  // namespace
}  // namespace pinscope
