#pragma once
// Host buffers of each kind the bandwidth sweep and calibration copy from, grown on demand and
// kept: pinned (cudaHostAlloc), write-combined (cudaHostAlloc, WriteCombined) and pageable
// (aligned_alloc, every page touched so that first-touch faults stay out of the timings).
#include <cstddef>

#include "bandwidth/CopyKinds.h"

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
};

}  // namespace pinscope
