// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The real GPU behind the Device interface: a copy stream (or the compute stream, as a plain loop
// copies), a compute stream, pinned memory from
// cudaHostAlloc / cudaHostRegister, and every op's GPU times from CUDA events put on the host's
// steady clock (CudaClock). Only engine/device/cuda includes CUDA headers; the rest of the engine
// reaches this through device/factory/DeviceFactory.h.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/device/CudaDeviceList.h"
#include "engine/device/Device.h"
#include "engine/device/cuda/ConsumeKernel.h"
#include "engine/device/cuda/CudaClock.h"

namespace pinscope {

// Opens CUDA device `ordinal`; throws DeviceError naming the device and the reason.
std::unique_ptr<Device> open_cuda_device(int ordinal);

// The GPUs the driver sees, or why there are none (no driver, no GPU, driver too old).
CudaDeviceList list_cuda_devices_present();

// Throws DeviceError saying why `ordinal` cannot be used: no driver, no GPU, or too few GPUs.
void require_cuda_device(int ordinal);

// Name and one line of detail (PCI bus id, SMs, memory, driver); throws DeviceError.
DeviceInfo cuda_device_info(int ordinal);

// Page-locked bytes that pinscope's CUDA devices hold right now (cudaHostAlloc + cudaHostRegister).
std::uint64_t cuda_pinned_bytes_live();
// Events that CudaDevices have made for their ops and not yet destroyed (tests: none leak).
std::uint64_t cuda_op_events_live();

class CudaDevice final : public Device {
public:
    explicit CudaDevice(int ordinal);
    ~CudaDevice() override;
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;

    DeviceInfo info() const override { return info_; }
    void prepare(std::size_t max_batch_bytes) override;
    void set_pinned_placement(const PinnedPlacement& placement) override { placement_ = placement; }
    void set_loader_workers(int) override {}
    PinnedAllocation allocate_pinned(std::size_t bytes) override;
    void free_pinned(const PinnedAllocation& allocation) override;
    bool register_host(void* ptr, std::size_t bytes) override;
    void unregister_host(void* ptr, std::size_t bytes) override;
    void set_copy_stream(CopyStream stream) override { copies_on_ = stream; }
    OpId copy_to_device(const HostSource& source, std::uint64_t batch) override;
    OpId launch_compute(OpId after, std::uint64_t batch, double gpu_us) override;
    bool is_complete(OpId op) override;
    void wait(OpId op) override;
    void collect_completed(std::vector<CompletedOp>& out) override;
    void synchronize() override;
    void set_copy_timing(bool on) override { time_copies_ = on; }
    void set_stop(std::stop_token stop) override;

    // What a finished compute op's kernel recorded (checksum, GPU clock times); valid for the
    // last kRecordSlots launches. Waits for the op.
    ConsumeRecord kernel_record(OpId compute);
    TimeNs clock_uncertainty_ns() const { return clock_->uncertainty_ns(); }

    static constexpr std::uint32_t kRecordSlots = 64;

private:
    struct PendingOp {
        OpId id = 0;
        OpKind kind = OpKind::H2D;
        std::uint64_t batch = 0;
        std::uint64_t bytes = 0;
        cudaEvent_t start = nullptr;
        cudaEvent_t end = nullptr;
        std::shared_ptr<const ClockAnchor> anchor;  // null: untimed (start is null too)
        // The work could not begin before its call was let through: a start event runs as soon as the
        // stream reaches it, even while the call after it waits for the driver's lock. 0: no bound.
        TimeNs not_before = 0;
    };
    struct CopyTarget {
        std::size_t buffer = 0;
        std::uint64_t bytes = 0;
        bool on_compute_stream = false;  // then its kernel follows it in stream order, with no event to wait on
    };
    struct DeviceBuffer {
        void* data = nullptr;
        cudaEvent_t copied = nullptr;   // recorded on the copy stream after the copy into it
        cudaEvent_t consumed = nullptr; // recorded on the compute stream after the kernel that read it
    };

    template <class Call>
    void check(const char* name, Call&& call) const { cuda_call(name, ordinal_, call); }
    void bind_thread() const;
    cudaEvent_t take_event(bool timed = true);  // from the spares of its kind, or a new one
    void spare_events_of(const PendingOp& op);  // an op that was not queued gives its events back
    void release_buffers();
    bool query(cudaEvent_t event) const;
    cudaEvent_t end_event_of(OpId op);

    const int ordinal_;
    bool time_copies_ = true;
    CopyStream copies_on_ = CopyStream::Side;
    PinnedPlacement placement_;
    std::mutex placed_mutex_;
    std::unordered_set<void*> placed_;  // allocations made by mmap + mbind + cudaHostRegister
    std::vector<PinnedAllocation> unfreed_;  // frees that failed: tried again (or reset) at the end
    DeviceInfo info_;
    ConsumeGrid grid_;
    cudaStream_t copy_stream_ = nullptr;
    cudaStream_t compute_stream_ = nullptr;
    std::unique_ptr<CudaClock> clock_;

    std::vector<DeviceBuffer> buffers_;
    std::size_t buffer_bytes_ = 0;
    std::uint64_t copies_issued_ = 0;
    ConsumeRecord* records_ = nullptr;  // kRecordSlots, device memory
    unsigned int* stop_flag_ = nullptr;  // host memory mapped into the device; the kernel watches it
    unsigned int* stop_flag_on_device_ = nullptr;
    std::optional<std::stop_callback<std::function<void()>>> on_stop_;  // sets the flag
    std::uint64_t launches_ = 0;
    std::unordered_map<OpId, CopyTarget> copy_targets_;  // copies not yet consumed by a launch
    std::vector<OpId> record_owners_;  // which launch each record slot holds

    mutable std::mutex ops_mutex_;  // the pin thread asks is_complete while the consumer issues
    std::deque<PendingOp> copies_;
    std::deque<PendingOp> computes_;
    std::vector<cudaEvent_t> spare_events_;
    std::vector<cudaEvent_t> spare_untimed_events_;
    OpId next_id_ = 1;
};

}  // namespace pinscope
