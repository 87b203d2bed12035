// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU modelled from a hardware profile, for machines without an NVIDIA GPU.
//
// The copy engine and the SMs are modelled as two in-order streams whose operations are scheduled
// when they are issued: a copy starts when the copy engine is free (and, for a copy queued on the
// compute stream or a pageable copy on a device that cannot overlap them, when every kernel issued
// before it has finished), and lasts
// size / bandwidth(size, pinned); a kernel starts after its copy and the previous kernel, and lasts
// its read of the batch plus the configured time. An operation is complete once the host clock
// passes its modelled end. A pageable copy holds the caller while the driver would stage it.
// Page-locked memory is real (mmap + mlock); with the host modelled its cost is the profile's and
// the pages are faulted in behind the caller's back; a call the profile says waits for the device
// (calibrate measures which do) first waits until every copy and kernel queued before it has ended,
// and while another thread's cudaHostAlloc runs or its cudaFreeHost waits for the device, the calls
// the profile says the driver makes wait do (calibrate measures which).
// A stop ends every operation at the stop.
#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/device/HardwareProfile.h"
#include "engine/host/ModeledMemoryBus.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/memory/PagePopulator.h"

namespace pinscope {

// What the emulated device says about itself: the profile's description and link.
DeviceInfo emulated_device_info(const HardwareProfile& profile);

class EmulatedDevice final : public Device {
public:
    // `bus`: the modelled host's memory, which slows a pageable copy's staging while modelled host
    // work streams through it (a bus of its own when null).
    EmulatedDevice(HardwareProfile profile, HostMode host, std::shared_ptr<ModeledMemoryBus> bus = nullptr);

    DeviceInfo info() const override;
    void prepare(std::size_t max_batch_bytes) override;
    void set_pinned_placement(const PinnedPlacement& placement) override { placement_ = placement; }
    void set_loader_workers(int workers) override { loader_workers_ = workers; }
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
    void set_stop(std::stop_token stop) override;
    void set_model_lag(std::shared_ptr<ModelLag> lag) override { lag_ = std::move(lag); }

    const HardwareProfile& profile() const { return profile_; }

private:
    // With the host modelled, a host call lasts at least the profile's cost for it.
    void hold_for_modeled_cost(TimeNs start, double cost_us) const;
    // The calls the profile's driver_lock and waits_for_device speak of.
    enum class DriverCall : std::uint8_t { HostAlloc, FreeHost, HostRegister, HostUnregister, Copy, Launch };
    bool waits_for_device(DriverCall call) const;
    // When another thread's call stops holding the driver for `call` (caller holds mutex_).
    TimeNs driver_free_for(DriverCall call) const;
    // Holds the caller until the driver is free for `call`; returns then.
    TimeNs wait_for_driver(DriverCall call);
    // A page-locking call of `cost_us` begins once the driver is free for it and, for a call that
    // waits for the device, once every copy and kernel issued so far has ended; the caller is held
    // until then. Returns when it began.
    TimeNs enter_page_locking(DriverCall call, double cost_us);
    void leave_page_locking(DriverCall call, TimeNs begin, double cost_us);  // held to its cost
    TimeNs end_of(OpId op);  // caller holds mutex_; at the stop at the latest
    // When the run's stop was requested, or kNever; fixed by the first to see the stop.
    TimeNs stop_time();
    // Schedules a copy at the profile's bandwidth times `rate_factor` and holds a pageable caller.
    OpId issue_copy(const HostSource& source, std::uint64_t batch, TimeNs issued, double rate_factor);

    LockTiming lock_timing() const;

    HardwareProfile profile_;
    HostMode host_;
    std::shared_ptr<ModeledMemoryBus> bus_;
    std::shared_ptr<ModelLag> lag_;
    PinnedPlacement placement_;
    int loader_workers_ = 0;
    PagePopulator populator_;
    CopyStream copies_on_ = CopyStream::Side;  // the consumer's: only it sets it and copies
    mutable std::mutex mutex_;
    OpId next_op_ = 1;
    TimeNs copy_engine_free_at_ = 0;
    TimeNs sms_free_at_ = 0;
    // Until when each page-locking call in progress, and a cudaFreeHost or a cudaHostUnregister
    // waiting for the device, hold the driver (for the calls the profile's driver_lock says wait
    // for them).
    TimeNs host_alloc_ends_ = 0;
    TimeNs free_host_ends_ = 0;
    TimeNs host_register_ends_ = 0;
    TimeNs host_unregister_ends_ = 0;
    TimeNs free_wait_ends_ = 0;
    TimeNs unregister_wait_ends_ = 0;
    TimeNs& held_until(DriverCall call);  // one of the first four; caller holds mutex_
    std::deque<CompletedOp> copy_stream_;     // issued, not yet collected, in stream order
    std::deque<CompletedOp> compute_stream_;
    struct OpTimes {
        TimeNs end = 0;
        std::uint64_t bytes = 0;
    };
    std::unordered_map<OpId, OpTimes> ops_;  // ops that may not have ended yet
    OpId oldest_uncollected_ = 1;

    static constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();
    std::stop_token stop_;
    std::atomic<TimeNs> stopped_at_{kNever};
    std::optional<std::stop_callback<std::function<void()>>> on_stop_;  // notes the time of the stop
};

}  // namespace pinscope
