// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaHostBuffers.h"

#include <cuda_runtime_api.h>

#include <cstring>

#include "engine/device/cuda/CudaCheck.h"

namespace pinscope {

CudaHostBuffers::~CudaHostBuffers() {
    for (HostMemoryKind kind : {HostMemoryKind::Pinned, HostMemoryKind::Pageable, HostMemoryKind::WriteCombined})
        release(kind, buffers_[static_cast<int>(kind)]);
}

void CudaHostBuffers::release(HostMemoryKind kind, Buffer& buffer) {
    if (!buffer.ptr) return;
    if (kind == HostMemoryKind::Pageable)
        pageable_.reset();
    else
        (void)cudaFreeHost(buffer.ptr);
    buffer = {};
}

void* CudaHostBuffers::get(HostMemoryKind kind, std::size_t bytes) {
    Buffer& buffer = buffers_[static_cast<int>(kind)];
    if (buffer.bytes >= bytes) return buffer.ptr;
    release(kind, buffer);
    const std::size_t rounded = round_to_pages(bytes);
    if (kind == HostMemoryKind::Pageable) {
        pageable_ = allocate_pageable(rounded);
        buffer.ptr = pageable_.get();
    } else {
        const unsigned flags = kind == HostMemoryKind::WriteCombined ? cudaHostAllocWriteCombined : cudaHostAllocDefault;
        cuda_call("cudaHostAlloc", ordinal_, [&] { return cudaHostAlloc(&buffer.ptr, rounded, flags); });
    }
    std::memset(buffer.ptr, 0x5A, rounded);
    buffer.bytes = rounded;
    return buffer.ptr;
}

CudaDeviceScratch::~CudaDeviceScratch() {
    if (data_) (void)cudaFree(data_);
}

void* CudaDeviceScratch::get(std::size_t bytes) {
    if (bytes_ >= bytes) return data_;
    cuda_call("cudaDeviceSynchronize", ordinal_, [] { return cudaDeviceSynchronize(); });
    if (data_) (void)cudaFree(data_);
    data_ = nullptr;
    bytes_ = 0;
    cuda_call("cudaMalloc", ordinal_, [&] { return cudaMalloc(&data_, bytes); });
    bytes_ = bytes;
    return data_;
}

}  // namespace pinscope
