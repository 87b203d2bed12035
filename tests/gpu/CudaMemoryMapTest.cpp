// SPDX-License-Identifier: GPL-3.0-or-later
// What calibrate reads of a munmap beside a cudaHostRegister holds for the pipeline's device:
// a munmap made on one thread while the run's device registers a batch on another waits for the
// share of the register that calibrate's probe reads (0: it does not wait).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/device/cuda/CudaCalibrationProbe.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/metrics/Median.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

class CudaMemoryMap : public CudaDeviceTest {};

constexpr std::size_t kRegisterBytes = std::size_t{512} << 20;
constexpr std::size_t kUnmapBytes = std::size_t{4} << 20;

PageableBuffer written(std::size_t bytes) {
    PageableBuffer buffer = allocate_batch(bytes, BatchMemory::NewPages);
    std::memset(buffer.get(), 1, bytes);
    return buffer;
}

// What calibrate's earlier steps do: free a malloc'd block of 16 MiB, which raises glibc's
// threshold for mapping a block of its own to that size.
void raise_the_mmap_threshold() {
    constexpr std::size_t kFreed = std::size_t{16} << 20;
    void* block = std::malloc(kFreed);
    ASSERT_NE(block, nullptr);
    std::memset(block, 1, kFreed);
    asm volatile("" : : "r"(block) : "memory");
    std::free(block);
}

TEST_F(CudaMemoryMap, AMunmapBesideTheDevicesRegisterWaitsForTheShareCalibrateReads) {
    raise_the_mmap_threshold();
    const double calibrated = open_cuda_calibration_probe(0)->unmap_waits_for_host_register();
    std::vector<double> shares;
    for (int i = 0; i < 5; ++i) {
        PageableBuffer batch = written(kRegisterBytes);
        PageableBuffer other = written(kUnmapBytes);
        std::atomic<bool> inside{false};
        TimeNs start = 0, end = 0;
        std::thread pin_thread([&] {
            start = now_ns();
            inside = true;
            ASSERT_TRUE(device->register_host(batch.get(), kRegisterBytes));
            end = now_ns();
        });
        while (!inside) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const TimeNs asked = now_ns();
        other.reset();
        const TimeNs unmapped = now_ns();
        pin_thread.join();
        device->unregister_host(batch.get(), kRegisterBytes);
        // A munmap that returned well before the register's end, or at once, did not wait for it.
        const bool waited = unmapped - asked > 1'000'000;
        shares.push_back(waited ? std::clamp(static_cast<double>(unmapped - start) / static_cast<double>(end - start), 0.0, 1.0)
                                : 0.0);
    }
    const double measured = median(shares);
    std::cout << "a munmap beside the device's cudaHostRegister of 512 MiB waited until " << measured
              << " of it; calibrate's probe reads " << calibrated << "\n";
    EXPECT_NEAR(measured, calibrated, 0.25);
}

}  // namespace
}  // namespace pinscope
