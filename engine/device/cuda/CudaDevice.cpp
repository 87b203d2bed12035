// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaDevice.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "engine/clock/SteadyClock.h"
#include "engine/config/LoaderConfig.h"
#include "engine/device/cuda/CudaCheck.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/numa/PagePlacement.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

std::atomic<std::uint64_t> g_pinned_bytes_live{0};
std::atomic<std::uint64_t> g_op_events_live{0};

// The earliest a copy or kernel whose call returned at `returned` can have begun. The driver queues
// the work just before the call returns, and the GPU may start it a little earlier than that: 50 us
// covers it, far less than a call held for milliseconds by another thread's page-locking.
constexpr TimeNs kQueuedBeforeReturnNs = 50'000;
TimeNs let_through_by(TimeNs returned) { return returned - kQueuedBeforeReturnNs; }

// Runs `undo` when the scope is left by an exception, unless dismissed first.
template <class Undo>
class UndoUnlessDismissed {
public:
    explicit UndoUnlessDismissed(Undo undo) : undo_(std::move(undo)) {}
    ~UndoUnlessDismissed() {
        if (armed_) undo_();
    }
    UndoUnlessDismissed(const UndoUnlessDismissed&) = delete;
    UndoUnlessDismissed& operator=(const UndoUnlessDismissed&) = delete;
    void dismiss() { armed_ = false; }

private:
    Undo undo_;
    bool armed_ = true;
};

void destroy_op_event(cudaEvent_t event) {
    if (event == nullptr) return;
    (void)cudaEventDestroy(event);
    --g_op_events_live;
}

// Why the runtime found no GPU, in words: the runtime reports a missing driver as "insufficient".
std::string why_no_gpu(cudaError_t error) {
    if (error == cudaErrorInsufficientDriver) {
        void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (driver == nullptr) return "no NVIDIA driver is installed (libcuda.so.1 not found)";
        dlclose(driver);
    }
    return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

std::string describe_device(int ordinal, const cudaDeviceProp& prop) {
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) != cudaSuccess) (void)cudaGetLastError();
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) (void)cudaGetLastError();
    const double gib = static_cast<double>(prop.totalGlobalMem) / static_cast<double>(kGiB);
    char text[256];
    std::snprintf(text, sizeof text, "PCI %s, %d SMs, %.0f GiB, compute %d.%d, driver CUDA %d.%d",
                  bus_id[0] ? bus_id : "unknown", prop.multiProcessorCount, gib, prop.major, prop.minor,
                  driver / 1000, driver % 1000 / 10);
    return text;
}

// The kernel's spelling, as hwloc and lspci write it: "0000:c1:00.0".
std::string pci_bus_id_of(const cudaDeviceProp& prop) {
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", static_cast<unsigned>(prop.pciDomainID),
                  static_cast<unsigned>(prop.pciBusID), static_cast<unsigned>(prop.pciDeviceID));
    return text;
}

}  // namespace

DeviceInfo cuda_device_info(int ordinal) {
    cudaDeviceProp prop{};
    cuda_call("cudaGetDeviceProperties", ordinal, [&] { return cudaGetDeviceProperties(&prop, ordinal); });
    return DeviceInfo{DeviceKind::Cuda, prop.name, "", describe_device(ordinal, prop), pci_bus_id_of(prop)};
}

std::uint64_t cuda_pinned_bytes_live() { return g_pinned_bytes_live.load(); }
std::uint64_t cuda_op_events_live() { return g_op_events_live.load(); }

CudaDeviceList list_cuda_devices_present() {
    CudaDeviceList list;
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
        (void)cudaGetLastError();
        list.why_none = why_no_gpu(error);
        return list;
    }
    if (count == 0) {
        list.why_none = "the CUDA driver sees no GPU";
        return list;
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
            (void)cudaGetLastError();
            continue;
        }
        list.devices.push_back(DeviceInfo{DeviceKind::Cuda, prop.name, "", describe_device(ordinal, prop), pci_bus_id_of(prop)});
    }
    if (list.devices.empty()) list.why_none = "the CUDA driver could not describe any of its GPUs";
    return list;
}

std::unique_ptr<Device> open_cuda_device(int ordinal) {
    require_cuda_device(ordinal);
    return std::make_unique<CudaDevice>(ordinal);
}

void require_cuda_device(int ordinal) {
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
        (void)cudaGetLastError();
        throw DeviceError("device cuda:" + std::to_string(ordinal) + ": no usable CUDA GPU: " + why_no_gpu(error));
    }
    if (ordinal >= count)
        throw DeviceError("device cuda:" + std::to_string(ordinal) + ": this machine has " + std::to_string(count) +
                          " CUDA GPU" + (count == 1 ? "" : "s") +
                          (count > 0 ? " (cuda:0 to cuda:" + std::to_string(count - 1) + ")" : std::string()));
}

CudaDevice::CudaDevice(int ordinal) : ordinal_(ordinal), record_owners_(kRecordSlots, 0) {
    bind_thread();
    info_ = cuda_device_info(ordinal_);
    int cooperative = 0;
    check("cudaDeviceGetAttribute", [&] { return cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, ordinal_); });
    if (!cooperative)
        throw DeviceError(cuda_device_label(ordinal_) + " cannot launch cooperative kernels, which the compute kernel needs");
    check("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&] { return consume_grid_for_device(ordinal_, grid_); });
    try {
        check("cudaStreamCreateWithFlags", [&] { return cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking); });
        check("cudaStreamCreateWithFlags", [&] { return cudaStreamCreateWithFlags(&compute_stream_, cudaStreamNonBlocking); });
        check("cudaMalloc", [&] { return cudaMalloc(reinterpret_cast<void**>(&records_), sizeof(ConsumeRecord) * kRecordSlots); });
        check("cudaMemsetAsync", [&] { return cudaMemsetAsync(records_, 0, sizeof(ConsumeRecord) * kRecordSlots, compute_stream_); });
        check("cudaHostAlloc", [&] {
            return cudaHostAlloc(reinterpret_cast<void**>(&stop_flag_), sizeof *stop_flag_, cudaHostAllocMapped);
        });
        *stop_flag_ = 0;
        check("cudaHostGetDevicePointer", [&] {
            return cudaHostGetDevicePointer(reinterpret_cast<void**>(&stop_flag_on_device_), stop_flag_, 0);
        });
        clock_ = std::make_unique<CudaClock>(ordinal_);
    } catch (...) {
        if (stop_flag_) (void)cudaFreeHost(stop_flag_);
        if (records_) (void)cudaFree(records_);
        if (compute_stream_) (void)cudaStreamDestroy(compute_stream_);
        if (copy_stream_) (void)cudaStreamDestroy(copy_stream_);
        throw;
    }
}

CudaDevice::~CudaDevice() {
    on_stop_.reset();
    bind_thread();
    const cudaError_t sync = cudaDeviceSynchronize();
    release_buffers();
    {
        std::lock_guard lock(ops_mutex_);
        for (auto* ops : {&copies_, &computes_})
            for (const PendingOp& op : *ops) {
                destroy_op_event(op.start);
                destroy_op_event(op.end);
            }
        for (cudaEvent_t event : spare_events_) destroy_op_event(event);
        for (cudaEvent_t event : spare_untimed_events_) destroy_op_event(event);
    }
    clock_.reset();
    if (records_) (void)cudaFree(records_);
    (void)cudaFreeHost(stop_flag_);
    (void)cudaStreamDestroy(compute_stream_);
    (void)cudaStreamDestroy(copy_stream_);
    // Pinned memory whose free failed: once more, and the reset below takes what is still held.
    for (const PinnedAllocation& allocation : unfreed_) {
        (void)cudaFreeHost(allocation.ptr);
        g_pinned_bytes_live -= allocation.bytes;
    }
    // A fault inside a kernel leaves the context unusable; resetting it lets the next run work.
    if (sync != cudaSuccess) (void)cudaDeviceReset();
    (void)cudaGetLastError();
}

void CudaDevice::set_stop(std::stop_token stop) {
    on_stop_.reset();
    std::atomic_ref<unsigned int>(*stop_flag_).store(0);
    on_stop_.emplace(std::move(stop), std::function<void()>([flag = stop_flag_] {
                         std::atomic_ref<unsigned int>(*flag).store(1);  // seen by the kernel within tens of us
                     }));
}

void CudaDevice::bind_thread() const {
    thread_local int bound = -1;
    if (bound == ordinal_) return;
    cuda_call("cudaSetDevice", ordinal_, [&] { return cudaSetDevice(ordinal_); });
    bound = ordinal_;
}

void CudaDevice::release_buffers() {
    for (DeviceBuffer& buffer : buffers_) {
        if (buffer.data) (void)cudaFree(buffer.data);
        if (buffer.copied) (void)cudaEventDestroy(buffer.copied);
        if (buffer.consumed) (void)cudaEventDestroy(buffer.consumed);
    }
    buffers_.clear();
    buffer_bytes_ = 0;
}

void CudaDevice::prepare(std::size_t max_batch_bytes) {
    bind_thread();
    if (max_batch_bytes <= buffer_bytes_ && !buffers_.empty()) return;
    synchronize();
    release_buffers();
    // Double buffering: the copy of batch i+1 fills one buffer while the kernel reads batch i.
    buffers_.resize(kMaxBatchesOnDevice);
    for (DeviceBuffer& buffer : buffers_) {
        check("cudaMalloc", [&] { return cudaMalloc(&buffer.data, max_batch_bytes); });
        check("cudaEventCreateWithFlags", [&] { return cudaEventCreateWithFlags(&buffer.copied, cudaEventDisableTiming); });
        check("cudaEventCreateWithFlags", [&] { return cudaEventCreateWithFlags(&buffer.consumed, cudaEventDisableTiming); });
    }
    buffer_bytes_ = max_batch_bytes;
}

PinnedAllocation CudaDevice::allocate_pinned(std::size_t bytes) {
    bind_thread();
    void* ptr = nullptr;
    if (placement_.policy == MemoryPlacement::FirstTouch) {
        check("cudaHostAlloc", [&] { return cudaHostAlloc(&ptr, bytes, cudaHostAllocDefault); });
        g_pinned_bytes_live += bytes;
        return PinnedAllocation{ptr, bytes, true};
    }
    // cudaHostAlloc cannot be told where to put its pages: bind the memory, touch it (the pages are
    // faulted in on their nodes), then register it.
    const std::size_t length = round_to_pages(bytes);
    ptr = map_pages(length);
    try {
        place_pages(ptr, length, placement_, false);
        touch_pages(ptr, length);
        check("cudaHostRegister", [&] { return cudaHostRegister(ptr, length, cudaHostRegisterDefault); });
    } catch (...) {
        unmap_locked(PinnedAllocation{ptr, length, false});
        throw;
    }
    {
        std::lock_guard lock(placed_mutex_);
        placed_.insert(ptr);
    }
    g_pinned_bytes_live += length;
    return PinnedAllocation{ptr, length, true};
}

void CudaDevice::free_pinned(const PinnedAllocation& allocation) {
    bind_thread();
    bool placed = false;
    {
        std::lock_guard lock(placed_mutex_);
        placed = placed_.erase(allocation.ptr) > 0;
    }
    if (placed) {
        std::exception_ptr failure;
        try {
            check("cudaHostUnregister", [&] { return cudaHostUnregister(allocation.ptr); });
        } catch (...) {
            failure = std::current_exception();
        }
        // Unmapped whatever the driver said: the mapping is ours, and unmapping ends the lock.
        unmap_locked(PinnedAllocation{allocation.ptr, allocation.bytes, false});
        g_pinned_bytes_live -= allocation.bytes;
        if (failure) std::rethrow_exception(failure);
        return;
    }
    try {
        check("cudaFreeHost", [&] { return cudaFreeHost(allocation.ptr); });
    } catch (...) {
        std::lock_guard lock(placed_mutex_);
        unfreed_.push_back(allocation);
        throw;
    }
    g_pinned_bytes_live -= allocation.bytes;
}

bool CudaDevice::register_host(void* ptr, std::size_t bytes) {
    bind_thread();
    place_pages(ptr, bytes, placement_, true);  // pages already written move to their node first
    check("cudaHostRegister", [&] { return cudaHostRegister(ptr, bytes, cudaHostRegisterDefault); });
    g_pinned_bytes_live += bytes;
    return true;
}

void CudaDevice::unregister_host(void* ptr, std::size_t bytes) {
    bind_thread();
    check("cudaHostUnregister", [&] { return cudaHostUnregister(ptr); });
    g_pinned_bytes_live -= bytes;
}

cudaEvent_t CudaDevice::take_event(bool timed) {
    {
        std::lock_guard lock(ops_mutex_);
        std::vector<cudaEvent_t>& spares = timed ? spare_events_ : spare_untimed_events_;
        if (!spares.empty()) {
            cudaEvent_t event = spares.back();
            spares.pop_back();
            return event;
        }
    }
    cudaEvent_t event = nullptr;
    check("cudaEventCreateWithFlags", [&] {
        return cudaEventCreateWithFlags(&event, timed ? cudaEventDefault : cudaEventDisableTiming);
    });
    ++g_op_events_live;
    return event;
}

void CudaDevice::spare_events_of(const PendingOp& op) {
    std::lock_guard lock(ops_mutex_);
    if (op.start != nullptr) {
        spare_events_.push_back(op.start);  // a timed op: both of its events are timed
        if (op.end != nullptr) spare_events_.push_back(op.end);
    } else if (op.end != nullptr) {
        spare_untimed_events_.push_back(op.end);
    }
}

OpId CudaDevice::copy_to_device(const HostSource& source, std::uint64_t batch) {
    bind_thread();
    if (buffers_.empty() || source.bytes > buffer_bytes_)
        throw DeviceError("copy of batch " + std::to_string(batch) + " (" + std::to_string(source.bytes) +
                          " bytes) on " + cuda_device_label(ordinal_) + ": larger than the prepared device buffers (" +
                          std::to_string(buffer_bytes_) + " bytes)");
    const std::size_t index = copies_issued_++ % buffers_.size();
    DeviceBuffer& buffer = buffers_[index];
    PendingOp op{0, OpKind::H2D, batch, source.bytes, nullptr, nullptr, nullptr};
    UndoUnlessDismissed give_back([&] { spare_events_of(op); });
    if (time_copies_) {
        op.start = take_event();
        op.end = take_event();
        op.anchor = clock_->anchor();
    } else {
        op.end = take_event(false);
    }
    // On the compute stream the copy follows every kernel queued before it, as x.to("cuda") does in
    // a plain loop; on the copy stream it waits only for the kernel that read this buffer last.
    const bool on_compute = copies_on_ == CopyStream::Compute;
    cudaStream_t stream = on_compute ? compute_stream_ : copy_stream_;
    if (!on_compute)
        check("cudaStreamWaitEvent", [&] { return cudaStreamWaitEvent(copy_stream_, buffer.consumed, 0); });
    if (op.start) check("cudaEventRecord", [&] { return cudaEventRecord(op.start, stream); });
    check("cudaMemcpyAsync", [&] {
        return cudaMemcpyAsync(buffer.data, source.ptr, source.bytes, cudaMemcpyHostToDevice, stream);
    });
    // A pageable copy runs while its call stages it; a pinned one only once the call has queued it.
    if (source.pinned) op.not_before = let_through_by(now_ns());
    check("cudaEventRecord", [&] { return cudaEventRecord(op.end, stream); });
    check("cudaEventRecord", [&] { return cudaEventRecord(buffer.copied, stream); });
    give_back.dismiss();
    std::lock_guard lock(ops_mutex_);
    op.id = next_id_++;
    copy_targets_[op.id] = CopyTarget{index, source.bytes, on_compute};
    copies_.push_back(std::move(op));
    return copies_.back().id;
}

OpId CudaDevice::launch_compute(OpId after, std::uint64_t batch, double gpu_us) {
    bind_thread();
    CopyTarget target;
    {
        std::lock_guard lock(ops_mutex_);
        const auto it = copy_targets_.find(after);
        if (it == copy_targets_.end())
            throw DeviceError("launch for batch " + std::to_string(batch) + " on " + cuda_device_label(ordinal_) +
                              ": op " + std::to_string(after) + " is not a copy waiting for its kernel");
        target = it->second;
        copy_targets_.erase(it);
    }
    DeviceBuffer& buffer = buffers_[target.buffer];
    const auto slot = static_cast<std::uint32_t>(launches_++ % kRecordSlots);
    PendingOp op{0, OpKind::Compute, batch, target.bytes, nullptr, nullptr, nullptr};
    UndoUnlessDismissed give_back([&] { spare_events_of(op); });
    op.start = take_event();
    op.end = take_event();
    op.anchor = clock_->anchor();
    ConsumeLaunch launch;
    launch.data = buffer.data;
    launch.bytes = target.bytes;
    launch.spin_ns = static_cast<std::uint64_t>(std::llround(std::max(0.0, gpu_us) * 1e3));
    launch.record = records_ + slot;
    launch.next_record = records_ + (slot + 1) % kRecordSlots;
    launch.stop = stop_flag_on_device_;
    if (!target.on_compute_stream)
        check("cudaStreamWaitEvent", [&] { return cudaStreamWaitEvent(compute_stream_, buffer.copied, 0); });
    check("cudaEventRecord", [&] { return cudaEventRecord(op.start, compute_stream_); });
    check("cudaLaunchCooperativeKernel", [&] { return launch_consume(launch, grid_, compute_stream_); });
    op.not_before = let_through_by(now_ns());
    check("cudaEventRecord", [&] { return cudaEventRecord(op.end, compute_stream_); });
    check("cudaEventRecord", [&] { return cudaEventRecord(buffer.consumed, compute_stream_); });
    give_back.dismiss();
    std::lock_guard lock(ops_mutex_);
    op.id = next_id_++;
    record_owners_[slot] = op.id;
    computes_.push_back(std::move(op));
    return computes_.back().id;
}

bool CudaDevice::query(cudaEvent_t event) const {
    cudaError_t status = cudaSuccess;
    check("cudaEventQuery", [&] {
        status = cudaEventQuery(event);
        return status == cudaErrorNotReady ? cudaSuccess : status;
    });
    return status == cudaSuccess;
}

bool CudaDevice::is_complete(OpId op) {
    if (op == 0) return true;
    bind_thread();
    std::lock_guard lock(ops_mutex_);
    for (const auto* ops : {&copies_, &computes_})
        for (const PendingOp& pending : *ops)
            if (pending.id == op) return query(pending.end);
    return true;  // collected, so complete
}

cudaEvent_t CudaDevice::end_event_of(OpId op) {
    std::lock_guard lock(ops_mutex_);
    for (const auto* ops : {&copies_, &computes_})
        for (const PendingOp& pending : *ops)
            if (pending.id == op) return pending.end;
    return nullptr;
}

void CudaDevice::wait(OpId op) {
    if (op == 0) return;
    bind_thread();
    // Only the consumer collects (and so recycles) events, and the consumer is the caller.
    cudaEvent_t end = end_event_of(op);
    if (end) check("cudaEventSynchronize", [&] { return cudaEventSynchronize(end); });
}

void CudaDevice::collect_completed(std::vector<CompletedOp>& out) {
    bind_thread();
    std::lock_guard lock(ops_mutex_);
    for (auto* ops : {&copies_, &computes_}) {
        while (!ops->empty() && query(ops->front().end)) {
            PendingOp& op = ops->front();
            if (op.anchor) {
                const TimeNs start = std::max(clock_->to_host(*op.anchor, op.start), op.not_before);
                const TimeNs end = clock_->to_host(*op.anchor, op.end);
                out.push_back(CompletedOp{op.id, op.kind, op.batch, op.bytes, start, std::max(start, end)});
                spare_events_.push_back(op.start);
                spare_events_.push_back(op.end);
            } else {
                const TimeNs seen = now_ns();
                out.push_back(CompletedOp{op.id, op.kind, op.batch, op.bytes, seen, seen});
                spare_untimed_events_.push_back(op.end);
            }
            ops->pop_front();
        }
    }
}

void CudaDevice::synchronize() {
    bind_thread();
    check("cudaStreamSynchronize", [&] { return cudaStreamSynchronize(copy_stream_); });
    check("cudaStreamSynchronize", [&] { return cudaStreamSynchronize(compute_stream_); });
}

ConsumeRecord CudaDevice::kernel_record(OpId compute) {
    bind_thread();
    wait(compute);
    std::uint32_t slot = kRecordSlots;
    {
        std::lock_guard lock(ops_mutex_);
        const auto it = std::find(record_owners_.begin(), record_owners_.end(), compute);
        if (it != record_owners_.end()) slot = static_cast<std::uint32_t>(it - record_owners_.begin());
    }
    if (slot == kRecordSlots)
        throw DeviceError("op " + std::to_string(compute) + " is not one of the last " + std::to_string(kRecordSlots) +
                          " kernel launches on " + cuda_device_label(ordinal_));
    ConsumeRecord record;
    check("cudaMemcpy", [&] { return cudaMemcpy(&record, records_ + slot, sizeof record, cudaMemcpyDeviceToHost); });
    return record;
}

}  // namespace pinscope
