// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaCopyTimer.h"

#include <cuda_runtime_api.h>

#include <vector>

#include "engine/device/cuda/CudaCheck.h"
#include "engine/device/cuda/CudaDevice.h"
#include "engine/device/cuda/CudaHostBuffers.h"
#include "engine/device/cuda/StreamHold.h"
#include "engine/topology/PcieLink.h"

namespace pinscope {
namespace {

constexpr std::uint64_t kHoldTimeoutNs = 10'000'000'000;

class CudaCopyTimer final : public CopyTimer {
public:
    explicit CudaCopyTimer(int ordinal) : ordinal_(ordinal), info_(cuda_device_info(ordinal)), host_(ordinal), device_(ordinal) {
        check("cudaSetDevice", [&] { return cudaSetDevice(ordinal_); });
        check("cudaStreamCreateWithFlags", [&] { return cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); });
        check("cudaEventCreate", [&] { return cudaEventCreate(&start_); });
        check("cudaEventCreate", [&] { return cudaEventCreate(&end_); });
        check("cudaEventCreateWithFlags", [&] { return cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming); });
        void* flag = nullptr;
        check("cudaHostAlloc", [&] { return cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped); });
        flag_ = static_cast<volatile int*>(flag);
        char bus_id[32] = {};
        check("cudaDeviceGetPCIBusId", [&] { return cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal_); });
        bus_id_ = bus_id;
    }

    ~CudaCopyTimer() override {
        (void)cudaStreamSynchronize(stream_);
        for (cudaEvent_t event : copy_events_) (void)cudaEventDestroy(event);
        (void)cudaFreeHost(const_cast<int*>(flag_));
        (void)cudaEventDestroy(copied_);
        (void)cudaEventDestroy(end_);
        (void)cudaEventDestroy(start_);
        (void)cudaStreamDestroy(stream_);
    }

    DeviceInfo info() const override { return info_; }

    std::string link_name() const override {
        const PcieLink link = read_pcie_link(bus_id_);
        return link.found ? link.name : std::string();
    }
    double link_gb_per_s() const override {
        const PcieLink link = read_pcie_link(bus_id_);
        return link.found ? link.gb_per_s : 0.0;
    }

    double time_copies(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int repeats,
                       bool traced) override {
        check("cudaSetDevice", [&] { return cudaSetDevice(ordinal_); });
        void* host = host_.get(memory, bytes);
        void* device = device_buffer(bytes);
        if (traced) ensure_copy_events(2 * static_cast<std::size_t>(repeats));
        // A pageable copy is staged by the host inside the call, so a held stream would never
        // drain; those are timed without the hold, the staging included.
        const bool hold = memory != HostMemoryKind::Pageable;
        if (hold) {
            *flag_ = 0;
            check("hold kernel launch", [&] { return launch_stream_hold(flag_, kHoldTimeoutNs, stream_); });
        }
        check("cudaEventRecord", [&] { return cudaEventRecord(start_, stream_); });
        for (int i = 0; i < repeats; ++i) {
            if (traced) check("cudaEventRecord", [&] { return cudaEventRecord(copy_events_[2 * i], stream_); });
            check("cudaMemcpyAsync", [&] {
                return direction == CopyDirection::H2D
                           ? cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_)
                           : cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_);
            });
            // What the CUDA device records around every copy of a run.
            if (traced) {
                check("cudaEventRecord", [&] { return cudaEventRecord(copy_events_[2 * i + 1], stream_); });
                check("cudaEventRecord", [&] { return cudaEventRecord(copied_, stream_); });
            }
        }
        check("cudaEventRecord", [&] { return cudaEventRecord(end_, stream_); });
        if (hold) {
            __atomic_store_n(flag_, 1, __ATOMIC_SEQ_CST);
        }
        check("cudaEventSynchronize", [&] { return cudaEventSynchronize(end_); });
        float ms = 0;
        check("cudaEventElapsedTime", [&] { return cudaEventElapsedTime(&ms, start_, end_); });
        return static_cast<double>(ms) / 1e3;
    }

private:
    template <class Call>
    void check(const char* name, Call&& call) const { cuda_call(name, ordinal_, call); }

    void* device_buffer(std::size_t bytes) { return device_.get(bytes); }

    void ensure_copy_events(std::size_t count) {
        while (copy_events_.size() < count) {
            cudaEvent_t event = nullptr;
            check("cudaEventCreate", [&] { return cudaEventCreate(&event); });
            copy_events_.push_back(event);
        }
    }

    int ordinal_;
    DeviceInfo info_;
    CudaHostBuffers host_;
    std::string bus_id_;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr;
    cudaEvent_t end_ = nullptr;
    cudaEvent_t copied_ = nullptr;
    volatile int* flag_ = nullptr;
    CudaDeviceScratch device_;
    std::vector<cudaEvent_t> copy_events_;
};

}  // namespace

std::unique_ptr<CopyTimer> open_cuda_copy_timer(int ordinal) {
    require_cuda_device(ordinal);
    return std::make_unique<CudaCopyTimer>(ordinal);
}

}  // namespace pinscope
