// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scratch memory for the bandwidth sweep and calibration, grown on demand and kept: host buffers of
// each kind they copy from, pinned (cudaHostAlloc), write-combined (cudaHostAlloc, WriteCombined)
// and pageable (allocate_pageable), every page touched so that first-touch faults stay out of the
// timings; and one device buffer.
#include <cstddef>

#include "engine/device/CopyKinds.h"
#include "engine/memory/PageLockedMemory.h"

namespace pinscope {

class CudaHostBuffers {
public:
    explicit CudaHostBuffers(int ordinal) : ordinal_(ordinal) {}
    ~CudaHostBuffers();
    CudaHostBuffers(const CudaHostBuffers&) = delete;
    CudaHostBuffers& operator=(const CudaHostBuffers&) = delete;

    void* get(HostMemoryKind kind, std::size_t bytes);

private:
    struct Buffer {
        void* ptr = nullptr;
        std::size_t bytes = 0;
    };
    void release(HostMemoryKind kind, Buffer& buffer);

    int ordinal_;
    Buffer buffers_[3];
    PageableBuffer pageable_;  // owns the pageable one of buffers_
};

// One device buffer, grown on demand (after the device has finished with the old one) and kept.
class CudaDeviceScratch {
public:
    explicit CudaDeviceScratch(int ordinal) : ordinal_(ordinal) {}
    ~CudaDeviceScratch();
    CudaDeviceScratch(const CudaDeviceScratch&) = delete;
    CudaDeviceScratch& operator=(const CudaDeviceScratch&) = delete;

    void* get(std::size_t bytes);

private:
    int ordinal_;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace pinscope
