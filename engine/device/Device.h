// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the pipeline needs from a GPU: page-locked host memory, a copy stream, a compute stream,
// and the times at which the GPU really did each operation. The emulated device and the CUDA
// device are the two implementations; nothing outside engine/device/ knows which one it has.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "engine/clock/ModelLag.h"
#include "engine/clock/TimeNs.h"
#include "engine/config/LoaderConfig.h"

namespace pinscope {

struct DeviceInfo {
    DeviceKind kind = DeviceKind::Emulated;  // emulated or cuda
    std::string name;     // "NVIDIA H200", or the profile's description for the emulated device
    std::string profile;  // the emulated device's profile name; empty for CUDA
    std::string detail;   // PCI bus id, link, driver: one line for banners and summaries
    std::string pci_bus_id = {};  // normalised ("0000:c1:00.0"); for the emulated device, the GPU it stands for, or ""
};

// A CUDA call (or its emulated counterpart) failed: names the call, the device and the error.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Host memory that is page-locked: cudaHostAlloc on CUDA, mmap + mlock on the emulated device.
struct PinnedAllocation {
    void* ptr = nullptr;
    std::size_t bytes = 0;
    bool locked = false;  // false when the OS refused to lock it (RLIMIT_MEMLOCK) and it is plain memory
};

using OpId = std::uint64_t;
enum class OpKind : std::uint8_t { H2D, Compute };

// A finished device operation, its times on the host's steady clock.
struct CompletedOp {
    OpId id = 0;
    OpKind kind = OpKind::H2D;
    std::uint64_t batch = 0;
    std::uint64_t bytes = 0;
    TimeNs start = 0;
    TimeNs end = 0;
};

struct HostSource {
    const void* ptr = nullptr;
    std::size_t bytes = 0;
    bool pinned = false;  // page-locked (pool block, cudaHostAlloc or registered)
    bool cached = false;  // the calling thread has just written it (no workers): still in the caches
    // Share of the bytes on another NUMA node than the GPU's; the emulated device charges its
    // profile's cross-node factor for it (a real GPU pays whatever the machine makes it pay).
    double remote_fraction = 0;
};

// Where the pages of page-locked memory go: bound (mbind) to `nodes` before they are faulted in
// and locked. First touch leaves them where the allocating thread runs.
struct PinnedPlacement {
    MemoryPlacement policy = MemoryPlacement::FirstTouch;
    std::vector<int> nodes;  // one node for GpuLocal and Remote, every node for Interleave
    friend bool operator==(const PinnedPlacement&, const PinnedPlacement&) = default;
};

class Device {
public:
    virtual ~Device() = default;

    virtual DeviceInfo info() const = 0;

    // Sizes device buffers for batches of up to `max_batch_bytes`; called before each run segment.
    virtual void prepare(std::size_t max_batch_bytes) = 0;

    // Where later page-locked allocations and registrations put their pages; called before
    // prepare(), while nothing allocates. Blocks allocated before keep their pages.
    virtual void set_pinned_placement(const PinnedPlacement& placement) = 0;
    // How many loader workers the run segment has (0: the consumer makes every batch); called
    // before prepare(), while nothing allocates. The emulated device charges a cudaHostAlloc as
    // calibrate timed it with workers running; a real GPU pays what the machine makes it pay.
    virtual void set_loader_workers(int workers) = 0;
    // Thread-safe: workers and the pin thread allocate while the consumer copies.
    virtual PinnedAllocation allocate_pinned(std::size_t bytes) = 0;
    virtual void free_pinned(const PinnedAllocation& allocation) = 0;
    // Page-locks existing memory in place (cudaHostRegister); false when the OS refused.
    virtual bool register_host(void* ptr, std::size_t bytes) = 0;
    virtual void unregister_host(void* ptr, std::size_t bytes) = 0;

    // Stream operations: called from one thread (the consumer) only.
    //
    // Which stream later copies are queued on (Side until set). On the compute stream a copy
    // starts only once every kernel queued before it has ended, and a pageable copy holds the
    // caller from the call until it has been staged, its wait for those kernels included (the
    // driver synchronizes with the stream before it stages).
    virtual void set_copy_stream(CopyStream stream) = 0;
    // Queues a host-to-device copy of the batch. From pinned memory it returns at once; from
    // pageable memory the caller is held while the driver stages the bytes.
    virtual OpId copy_to_device(const HostSource& source, std::uint64_t batch) = 0;
    // Queues the kernel on the compute stream after the copy `after`: it reads every byte of the
    // batch, then runs for `gpu_us` on the GPU's clock. The device may reuse the buffer of a batch
    // once its compute has completed; the consumer keeps at most kMaxBatchesOnDevice queued.
    virtual OpId launch_compute(OpId after, std::uint64_t batch, double gpu_us) = 0;
    // Thread-safe (the pinned pool asks from the pin thread). Op 0 is always complete.
    virtual bool is_complete(OpId op) = 0;
    virtual void wait(OpId op) = 0;
    // Appends the operations that completed since the last call, in completion order per stream.
    virtual void collect_completed(std::vector<CompletedOp>& out) = 0;
    // Waits for everything queued.
    virtual void synchronize() = 0;
    // The run's stop: once it is requested, work in flight ends early and nothing waits long.
    // The emulated device ends its modelled operations at the stop (those not begun never run and
    // are not reported) and its holds and waits return; the CUDA kernel stops spinning, so a
    // cut-short kernel's span ends at the stop. Set before the run starts.
    virtual void set_stop(std::stop_token stop) = 0;
    // Off: copies are still tracked to completion but not timed (their CompletedOp has start ==
    // end == when completion was seen), so a run can be measured without its tracing.
    virtual void set_copy_timing(bool /*on*/) {}
    // Where a device that models host-side costs counts the time this machine fell behind them.
    virtual void set_model_lag(std::shared_ptr<ModelLag> /*lag*/) {}
};

}  // namespace pinscope
