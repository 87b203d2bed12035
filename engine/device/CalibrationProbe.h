// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `pinscope-cli calibrate` asks of a real GPU beyond copy bandwidth: the figures of a
// hardware profile that only the device can measure. The CUDA implementation lives in
// device/cuda (CudaCalibrationProbe.h), and device/factory/CalibrationProbeFactory.h opens it;
// tests use a fake.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/device/CopyTimer.h"
#include "engine/device/Device.h"
#include "engine/device/HardwareProfile.h"

namespace pinscope {

// Where the batch a copy reads is: just collated by the copying thread (no workers), or collated
// earlier and pushed out of the caches (a batch a worker handed over).
enum class BatchState : std::uint8_t { JustCollated, InMemory };

// Medians of a page-locking call and of the call that undoes it, timed on the same buffers in one pass.
struct PinCosts {
    double pin_us = 0;
    double unpin_us = 0;
};

class CalibrationProbe {  // what only a real GPU can measure
public:
    virtual ~CalibrationProbe() = default;
    virtual DeviceInfo info() const = 0;
    virtual CopyTimer& copy_timer() = 0;
    virtual double pageable_hold_fraction(std::size_t bytes) = 0;     // host time inside a pageable H2D cudaMemcpyAsync / that copy's GPU duration
    virtual bool pageable_overlaps_compute(std::size_t bytes) = 0;    // does a pageable H2D copy run while a kernel runs on another stream
    virtual double copy_call_us() = 0;                                // host cost of issuing a pinned async copy or a kernel launch (median)
    virtual double device_read_gb_per_s(std::size_t bytes) = 0;       // the compute kernel's pass over a batch in device memory
    virtual PinCosts host_alloc_free_us(std::size_t bytes) = 0;           // cudaHostAlloc and cudaFreeHost, with blocks held as pin_mode alloc holds them
    virtual PinCosts host_register_unregister_us(std::size_t bytes) = 0;  // cudaHostRegister (of fresh malloc'd memory), then cudaHostUnregister
    virtual PageLockingWaits page_locking_waits() = 0;  // each call made while a long kernel runs on another stream
    // Each call made on one thread while another is inside a long cudaHostAlloc or cudaFreeHost,
    // or (where `waits` says cudaFreeHost waits for the GPU) inside a cudaFreeHost waiting for a
    // long kernel.
    virtual DriverLock driver_lock(const PageLockingWaits& waits) = 0;
    // The share of a long cudaHostRegister's length, from its start, for which another thread's
    // munmap waits (0 where it does not wait).
    virtual double unmap_waits_for_host_register() = 0;
    // Both read a batch collated into a fresh buffer (collated_batch), as the pipeline's are:
    virtual double memcpy_to_pinned_gb_per_s(std::size_t bytes, BatchState batch) = 0;  // one thread, into cudaHostAlloc'd memory
    virtual double pageable_h2d_gb_per_s(std::size_t bytes, BatchState batch) = 0;       // timed on the host to its end
};

}  // namespace pinscope
