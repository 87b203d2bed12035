// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaCalibrationProbe.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/device/cuda/ConsumeKernel.h"
#include "engine/device/cuda/CudaCheck.h"
#include "engine/device/cuda/CudaCopyTimer.h"
#include "engine/device/cuda/CudaDevice.h"
#include "engine/device/cuda/CudaHostBuffers.h"
#include "engine/host/HostMeasurement.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/metrics/Median.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr int kSamples = 5;
constexpr double kOverlapKernelUs = 50'000;  // far longer than the pageable copy or the page-locking call it must cover
// A cudaHostAlloc that lasts far longer than any call made beside it (about 250 ms on the H100 VMs),
// and how long after it began the call beside it is made.
constexpr std::size_t kDriverHoldBytes = std::size_t{512} << 20;
constexpr double kDriverSettleUs = 2'000;

double us_since(TimeNs start) { return static_cast<double>(now_ns() - start) / 1e3; }

class CudaCalibrationProbe final : public CalibrationProbe {
public:
    explicit CudaCalibrationProbe(int ordinal)
        : ordinal_(ordinal), info_(cuda_device_info(ordinal)), timer_(open_cuda_copy_timer(ordinal)), host_(ordinal),
          device_(ordinal) {
        check("cudaSetDevice", [&] { return cudaSetDevice(ordinal_); });
        check("cudaStreamCreateWithFlags", [&] { return cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking); });
        check("cudaStreamCreateWithFlags", [&] { return cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking); });
        for (cudaEvent_t* event : {&a_, &b_, &d_}) check("cudaEventCreate", [&] { return cudaEventCreate(event); });
        check("cudaMalloc", [&] { return cudaMalloc(reinterpret_cast<void**>(&records_), 2 * sizeof(ConsumeRecord)); });
        check("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&] { return consume_grid_for_device(ordinal_, grid_); });
    }

    ~CudaCalibrationProbe() override {
        (void)cudaDeviceSynchronize();
        (void)cudaFree(records_);
        for (cudaEvent_t event : {a_, b_, d_}) (void)cudaEventDestroy(event);
        (void)cudaStreamDestroy(compute_);
        (void)cudaStreamDestroy(copy_);
    }

    DeviceInfo info() const override { return info_; }
    CopyTimer& copy_timer() override { return *timer_; }

    double pageable_hold_fraction(std::size_t bytes) override {
        void* host = host_.get(HostMemoryKind::Pageable, bytes);
        void* device = device_buffer(bytes);
        std::vector<double> fractions;
        for (int i = 0; i <= kSamples; ++i) {
            check("cudaEventRecord", [&] { return cudaEventRecord(a_, copy_); });
            const TimeNs start = now_ns();
            check("cudaMemcpyAsync", [&] { return cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, copy_); });
            const double held_us = us_since(start);
            check("cudaEventRecord", [&] { return cudaEventRecord(b_, copy_); });
            const double copy_us = elapsed_us(a_, b_);
            if (i > 0) fractions.push_back(held_us / copy_us);  // the first is warm-up
        }
        return median(fractions);
    }

    bool pageable_overlaps_compute(std::size_t bytes) override {
        void* host = host_.get(HostMemoryKind::Pageable, bytes);
        void* device = device_buffer(bytes);
        launch_long_kernel();
        check("cudaEventRecord", [&] { return cudaEventRecord(b_, compute_); });
        check("cudaMemcpyAsync", [&] { return cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, copy_); });
        check("cudaEventRecord", [&] { return cudaEventRecord(d_, copy_); });
        // Overlapped: the copy finished while the kernel was still running.
        return elapsed_us(d_, b_) > 0;
    }

    // A call waits for the device when it returns only after the kernel queued before it has ended:
    // it takes over half the kernel's length where alone it takes a few milliseconds at most. Each
    // call is asked kTries times and waits when it waited in most: on a fresh H200 VM the first
    // cudaHostRegister of a process once waited for the kernel, and calibrate then read no wait.
    PageLockingWaits page_locking_waits() override {
        constexpr std::size_t kBytes = 4 * kMiB;
        constexpr int kTries = 3;
        const auto waited = [&](auto&& call) {
            launch_long_kernel();
            const TimeNs start = now_ns();
            call();
            const double us = us_since(start);
            check("cudaDeviceSynchronize", [&] { return cudaDeviceSynchronize(); });
            return us > kOverlapKernelUs / 2 ? 1 : 0;
        };
        const PageableBuffer buffer = allocate_pageable(kBytes);
        std::memset(buffer.get(), 1, kBytes);
        int host_alloc = 0, free_host = 0, host_register = 0, host_unregister = 0;
        for (int i = 0; i < kTries; ++i) {
            void* pinned = nullptr;
            host_alloc += waited([&] { check("cudaHostAlloc", [&] { return cudaHostAlloc(&pinned, kBytes, cudaHostAllocDefault); }); });
            std::memset(pinned, 1, kBytes);
            free_host += waited([&] { check("cudaFreeHost", [&] { return cudaFreeHost(pinned); }); });
            host_register += waited([&] {
                check("cudaHostRegister", [&] { return cudaHostRegister(buffer.get(), kBytes, cudaHostRegisterDefault); });
            });
            host_unregister += waited([&] { check("cudaHostUnregister", [&] { return cudaHostUnregister(buffer.get()); }); });
        }
        const auto most = [](int waits) { return 2 * waits > kTries; };
        PageLockingWaits result;
        result.host_alloc = most(host_alloc);
        result.free_host = most(free_host);
        result.host_register = most(host_register);
        result.host_unregister = most(host_unregister);
        return result;
    }

    // Each call made on this thread while another thread is inside a page-locking call of
    // kDriverHoldBytes, or inside a cudaFreeHost or a cudaHostUnregister waiting for a kernel
    // (where that call waits for the GPU).
    DriverLock driver_lock(const PageLockingWaits& waits) override {
        constexpr std::size_t kBytes = 4 * kMiB;
        const auto allocate = [&](std::size_t bytes) {
            void* p = nullptr;
            check("cudaHostAlloc", [&] { return cudaHostAlloc(&p, bytes, cudaHostAllocDefault); });
            return p;
        };
        void* pinned = allocate(kBytes);  // a copy's source
        std::memset(pinned, 1, kBytes);
        void* device = device_buffer(kBytes);
        const PageableBuffer pageable = allocate_pageable(kBytes);  // what the calls asked register
        std::memset(pageable.get(), 1, kBytes);
        const PageableBuffer held_pageable = allocate_pageable(kDriverHoldBytes);  // what a holding register locks
        std::memset(held_pageable.get(), 1, kDriverHoldBytes);
        const auto free_host = [&](void* p) { check("cudaFreeHost", [&] { return cudaFreeHost(p); }); };
        const auto register_host = [&](void* p, std::size_t bytes) {
            check("cudaHostRegister", [&] { return cudaHostRegister(p, bytes, cudaHostRegisterDefault); });
        };
        const auto unregister_host = [&](void* p) { check("cudaHostUnregister", [&] { return cudaHostUnregister(p); }); };
        const auto copy = [&] {
            check("cudaMemcpyAsync", [&] { return cudaMemcpyAsync(device, pinned, kBytes, cudaMemcpyHostToDevice, copy_); });
        };
        const auto launch = [&] { launch_short_kernel(); };
        const auto finish = [&] { check("cudaDeviceSynchronize", [&] { return cudaDeviceSynchronize(); }); };

        // The calls in turn, each made while `hold` holds the driver on another thread; a call
        // that waits for the GPU itself is not asked while the holder waits for it.
        const auto ask_each = [&](auto&& hold, bool holder_waits_for_gpu = false) {
            DriverWaiters waiters;
            void* mine = nullptr;
            waiters.host_alloc = hold([&] { mine = allocate(kBytes); });
            if (holder_waits_for_gpu) {
                free_host(mine);
            } else {
                waiters.free_host = hold([&] { free_host(mine); });
            }
            waiters.host_register = hold([&] { register_host(pageable.get(), kBytes); });
            if (holder_waits_for_gpu) {
                unregister_host(pageable.get());
            } else {
                waiters.host_unregister = hold([&] { unregister_host(pageable.get()); });
            }
            waiters.copies = hold(copy);
            waiters.launches = hold(launch);
            return waiters;
        };
        // `held_call` on another thread, `before` and `after` it on this one.
        const auto holding = [&](auto before, auto held_call, auto after, double settle_us) {
            return [this, &finish, before, held_call, after, settle_us](auto&& call) {
                before();
                const bool waited = waits_behind(held_call, call, settle_us);
                after();
                finish();
                return waited;
            };
        };
        void* held = nullptr;  // the holding call's block
        const auto nothing = [] {};
        const auto allocate_held = [&] { held = allocate(kDriverHoldBytes); };
        const auto allocate_held_written = [&] {
            allocate_held();
            std::memset(held, 1, kDriverHoldBytes);
        };
        const auto free_held = [&] { free_host(held); };
        const auto register_held = [&] { register_host(held_pageable.get(), kDriverHoldBytes); };
        const auto unregister_held = [&] { unregister_host(held_pageable.get()); };
        DriverLock lock;
        lock.during_host_alloc = ask_each(holding(nothing, allocate_held, free_held, kDriverSettleUs));
        lock.during_free_host = ask_each(holding(allocate_held_written, free_held, nothing, kDriverSettleUs));
        lock.during_host_register = ask_each(holding(nothing, register_held, unregister_held, kDriverSettleUs));
        lock.during_host_unregister = ask_each(holding(register_held, unregister_held, nothing, kDriverSettleUs));

        // Behind a long kernel, on a small block: the holder's own cost is short beside the wait.
        void* small = nullptr;
        const auto allocate_small = [&] {
            small = allocate(kBytes);
            launch_long_kernel();
        };
        const auto free_small = [&] { free_host(small); };
        const auto register_small = [&] {
            register_host(held_pageable.get(), kBytes);
            launch_long_kernel();
        };
        const auto unregister_small = [&] { unregister_host(held_pageable.get()); };
        if (waits.free_host)
            lock.while_free_waits = ask_each(holding(allocate_small, free_small, nothing, kOverlapKernelUs / 10), true);
        if (waits.host_unregister)
            lock.while_unregister_waits =
                ask_each(holding(register_small, unregister_small, nothing, kOverlapKernelUs / 10), true);
        finish();
        free_host(pinned);
        return lock;
    }

    // A munmap of a written 4 MiB buffer made kDriverSettleUs into a cudaHostRegister of
    // kDriverHoldBytes on another thread: where it took far longer than alone, the register held
    // the memory map until the munmap returned, and that time's share of the register's length is
    // the reading (median of kSamples tries). The buffers are mapped as a worker's batch is: from
    // malloc, a free after calibrate's earlier steps raised glibc's mmap threshold is no munmap.
    double unmap_waits_for_host_register() override {
        constexpr std::size_t kBytes = 4 * kMiB;
        const auto written = [](std::size_t bytes) {
            PageableBuffer buffer = allocate_batch(bytes, BatchMemory::NewPages);
            std::memset(buffer.get(), 1, bytes);
            return buffer;
        };
        std::vector<double> alone;
        for (int i = 0; i < kSamples; ++i) {
            PageableBuffer buffer = written(kBytes);
            const TimeNs start = now_ns();
            buffer.reset();
            alone.push_back(us_since(start));
        }
        const double alone_us = median(alone);
        std::vector<double> shares;
        for (int i = 0; i < kSamples; ++i) {
            PageableBuffer held = written(kDriverHoldBytes);
            PageableBuffer mine = written(kBytes);
            const Overlap overlap = run_beside(
                [&] {
                    check("cudaHostRegister",
                          [&] { return cudaHostRegister(held.get(), kDriverHoldBytes, cudaHostRegisterDefault); });
                },
                [&] { mine.reset(); }, kDriverSettleUs);
            check("cudaHostUnregister", [&] { return cudaHostUnregister(held.get()); });
            const auto length = static_cast<double>(overlap.hold_end - overlap.hold_start);
            const bool waited = static_cast<double>(overlap.call_end - overlap.call_start) / 1e3 >
                                3 * alone_us + kDriverSettleUs / 10;
            shares.push_back(waited && length > 0
                                 ? std::clamp(static_cast<double>(overlap.call_end - overlap.hold_start) / length, 0.0, 1.0)
                                 : 0.0);
        }
        return median(shares);
    }

    // When `hold` ran on another thread and `call` on this one, made `settle_us` after `hold` began.
    struct Overlap {
        TimeNs hold_start = 0, hold_end = 0;
        TimeNs call_start = 0, call_end = 0;
    };
    template <class Hold, class Call>
    Overlap run_beside(Hold&& hold, Call&& call, double settle_us) {
        Overlap overlap;
        std::atomic<bool> inside{false};
        std::exception_ptr failure;
        std::thread other([&] {
            try {
                check("cudaSetDevice", [&] { return cudaSetDevice(ordinal_); });
                overlap.hold_start = now_ns();
                inside = true;
                hold();
                overlap.hold_end = now_ns();
            } catch (...) {
                failure = std::current_exception();
                inside = true;  // a hold that failed before it began must not leave this thread waiting
            }
        });
        while (!inside) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(settle_us)));
        overlap.call_start = now_ns();
        std::exception_ptr call_failure;
        try {
            call();
        } catch (...) {
            call_failure = std::current_exception();
        }
        overlap.call_end = now_ns();
        other.join();
        if (failure) std::rethrow_exception(failure);
        if (call_failure) std::rethrow_exception(call_failure);
        return overlap;
    }

    // Whether `call`, made `settle_us` after another thread went into `hold`, returned only once
    // most of what was left of `hold` had passed: it waited for it.
    template <class Hold, class Call>
    bool waits_behind(Hold&& hold, Call&& call, double settle_us) {
        const Overlap overlap = run_beside(hold, call, settle_us);
        const auto left = static_cast<double>(overlap.hold_end - overlap.call_start);
        return left > 0 && static_cast<double>(overlap.call_end - overlap.call_start) > 0.5 * left;
    }

    double copy_call_us() override {
        void* host = host_.get(HostMemoryKind::Pinned, 4096);
        void* device = device_buffer(4096);
        ConsumeLaunch kernel;
        kernel.data = device;
        kernel.bytes = 4096;
        kernel.record = records_;
        kernel.next_record = records_ + 1;
        std::vector<double> calls;
        for (int i = 0; i < 50; ++i) {
            TimeNs start = now_ns();
            check("cudaMemcpyAsync", [&] { return cudaMemcpyAsync(device, host, 4096, cudaMemcpyHostToDevice, copy_); });
            calls.push_back(us_since(start));
            start = now_ns();
            check("cudaLaunchCooperativeKernel", [&] { return launch_consume(kernel, grid_, compute_); });
            calls.push_back(us_since(start));
            check("cudaDeviceSynchronize", [&] { return cudaDeviceSynchronize(); });
        }
        return median(calls);
    }

    double device_read_gb_per_s(std::size_t bytes) override {
        void* device = device_buffer(bytes);
        check("cudaMemsetAsync", [&] { return cudaMemsetAsync(device, 0x3C, bytes, compute_); });
        ConsumeLaunch kernel;
        kernel.data = device;
        kernel.bytes = bytes;
        kernel.record = records_;
        kernel.next_record = records_ + 1;
        std::vector<double> rates;
        for (int i = 0; i <= kSamples; ++i) {
            // Everything on the compute stream, which does not synchronise with the legacy default stream.
            check("cudaMemsetAsync", [&] { return cudaMemsetAsync(records_, 0, sizeof(ConsumeRecord), compute_); });
            check("cudaLaunchCooperativeKernel", [&] { return launch_consume(kernel, grid_, compute_); });
            check("cudaStreamSynchronize", [&] { return cudaStreamSynchronize(compute_); });
            ConsumeRecord record;
            check("cudaMemcpy", [&] { return cudaMemcpy(&record, records_, sizeof record, cudaMemcpyDeviceToHost); });
            const double read_ns = static_cast<double>(record.spin_start_ns - record.entry_ns);
            if (i > 0 && read_ns > 0) rates.push_back(static_cast<double>(bytes) / read_ns);  // bytes per ns = GB/s
        }
        if (rates.empty()) throw DeviceError("the kernel's read of " + std::to_string(bytes) + " bytes on " +
                                             cuda_device_label(ordinal_) + " took no measurable time");
        return median(rates);
    }

    // Medians of cudaHostAlloc and of cudaFreeHost of `bytes`, each block's pages touched as a batch
    // would touch them, called as pin_mode alloc calls them: each block stays allocated while the
    // next ones are (a batch waits pinned for its copy), here kHeldBlocks of them, and the oldest is
    // freed once one more is held. Calls in alloc-free pairs measure something else: on the H100 a
    // lone 1 MiB block cost 0.5 ms to allocate at every pair, three held 1 MiB blocks 2 us each;
    // above 1 MiB both cost 0.55 ms, and calibrate's pairs had read 2 us up to 1.5 MiB (a 1.4 MB
    // batch's took 0.85 ms in the pipeline).
    PinCosts host_alloc_free_us(std::size_t bytes) override {
        constexpr std::size_t kHeldBlocks = 3;
        std::vector<double> allocs, frees;
        std::deque<void*> held;
        const auto free_oldest = [&](bool timed) {
            const TimeNs start = now_ns();
            const cudaError_t error = cudaFreeHost(held.front());
            if (timed) frees.push_back(us_since(start));
            held.pop_front();
            if (error != cudaSuccess) throw_cuda_error("cudaFreeHost", ordinal_, error);
        };
        try {
            for (std::size_t i = 0; i < static_cast<std::size_t>(kSamples) + kHeldBlocks; ++i) {
                void* ptr = nullptr;
                const TimeNs start = now_ns();
                check("cudaHostAlloc", [&] { return cudaHostAlloc(&ptr, bytes, cudaHostAllocDefault); });
                if (i >= kHeldBlocks) allocs.push_back(us_since(start));  // with kHeldBlocks held already
                held.push_back(ptr);
                std::memset(ptr, 1, bytes);
                if (held.size() > kHeldBlocks) free_oldest(true);
            }
            while (!held.empty()) free_oldest(false);
        } catch (...) {
            for (void* ptr : held) (void)cudaFreeHost(ptr);
            throw;
        }
        return {median(allocs), median(frees)};
    }

    // Medians of cudaHostRegister and cudaHostUnregister of freshly allocated, filled memory.
    PinCosts host_register_unregister_us(std::size_t bytes) override {
        std::vector<double> registers, unregisters;
        const std::size_t rounded = round_to_pages(bytes);
        for (int i = 0; i < kSamples; ++i) {
            const PageableBuffer buffer = allocate_pageable(rounded);
            void* ptr = buffer.get();
            std::memset(ptr, 1, rounded);
            TimeNs start = now_ns();
            cudaError_t error = cudaHostRegister(ptr, rounded, cudaHostRegisterDefault);
            registers.push_back(us_since(start));
            if (error == cudaSuccess) {
                start = now_ns();
                error = cudaHostUnregister(ptr);
                unregisters.push_back(us_since(start));
            }
            if (error != cudaSuccess) throw_cuda_error("cudaHostRegister/cudaHostUnregister", ordinal_, error);
        }
        return {median(registers), median(unregisters)};
    }

    // Both read a batch as the pipeline hands it on: just collated into a fresh buffer.
    double memcpy_to_pinned_gb_per_s(std::size_t bytes, BatchState state) override {
        void* pinned = host_.get(HostMemoryKind::Pinned, bytes);
        return rate_over_collated_batches(bytes, state, kSamples,
                                          [&](const std::byte* batch) { std::memcpy(pinned, batch, bytes); });
    }

    double pageable_h2d_gb_per_s(std::size_t bytes, BatchState state) override {
        void* device = device_buffer(bytes);
        return rate_over_collated_batches(bytes, state, kSamples, [&](const std::byte* batch) {
            check("cudaMemcpyAsync", [&] { return cudaMemcpyAsync(device, batch, bytes, cudaMemcpyHostToDevice, copy_); });
            check("cudaStreamSynchronize", [&] { return cudaStreamSynchronize(copy_); });
        });
    }

private:
    template <class Call>
    void check(const char* name, Call&& call) const { cuda_call(name, ordinal_, call); }

    double elapsed_us(cudaEvent_t from, cudaEvent_t to) const {
        check("cudaEventSynchronize", [&] { return cudaEventSynchronize(to); });
        check("cudaEventSynchronize", [&] { return cudaEventSynchronize(from); });
        float ms = 0;
        check("cudaEventElapsedTime", [&] { return cudaEventElapsedTime(&ms, from, to); });
        return static_cast<double>(ms) * 1e3;
    }

    void* device_buffer(std::size_t bytes) { return device_.get(bytes); }

    // The run's kernel on a 4 KiB batch, launched as the run launches it, on the compute stream.
    void launch_short_kernel() {
        ConsumeLaunch kernel;
        kernel.data = device_buffer(4096);
        kernel.bytes = 4096;
        kernel.record = records_;
        kernel.next_record = records_ + 1;
        check("cudaLaunchCooperativeKernel", [&] { return launch_consume(kernel, grid_, compute_); });
    }

    // A kernel that reads nothing and spins for kOverlapKernelUs on the compute stream.
    void launch_long_kernel() {
        ConsumeLaunch kernel;
        kernel.data = device_buffer(4096);
        kernel.bytes = 0;
        kernel.spin_ns = static_cast<std::uint64_t>(kOverlapKernelUs * 1e3);
        kernel.record = records_;
        kernel.next_record = records_ + 1;
        check("cudaMemsetAsync", [&] { return cudaMemsetAsync(records_, 0, sizeof(ConsumeRecord), compute_); });
        check("cudaLaunchCooperativeKernel", [&] { return launch_consume(kernel, grid_, compute_); });
    }

    int ordinal_;
    DeviceInfo info_;
    std::unique_ptr<CopyTimer> timer_;
    CudaHostBuffers host_;
    cudaStream_t copy_ = nullptr;
    cudaStream_t compute_ = nullptr;
    cudaEvent_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
    ConsumeRecord* records_ = nullptr;
    ConsumeGrid grid_;
    CudaDeviceScratch device_;
};

}  // namespace

std::unique_ptr<CalibrationProbe> open_cuda_calibration_probe(int ordinal) {
    require_cuda_device(ordinal);
    return std::make_unique<CudaCalibrationProbe>(ordinal);
}

}  // namespace pinscope
