// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/emulated/EmulatedDevice.h"

#include <algorithm>

#include "engine/clock/SteadyClock.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/numa/PagePlacement.h"

namespace pinscope {
namespace {

TimeNs us_to_ns(double us) { return duration_ns(us * 1e3); }

// Where calibrate timed a batch's page-locking call: in a pipeline with loader workers (their
// streaming is in that figure), in one without, and alone.
struct PageLockingCurves {
    const SizeCurve& with_workers;
    const SizeCurve& in_pipeline;
    const SizeCurve& alone;
};

bool covers(const SizeCurve& curve, double size) { return !curve.empty() && size >= curve.sizes_bytes.front(); }

// A batch's page-locking call: in a run with workers, as timed with workers where that curve
// reaches the size, else as timed alone (never the no-worker pipeline's small batches, where the
// driver hands back the block just freed, which with workers it did not); in a run without, as
// timed in the pipeline, or alone below its smallest batch. Slowed by `load_factor` for the
// modelled threads streaming now, except the with-workers figure, whose workers streamed already.
double page_locking_cost_us(const PageLockingCurves& measured, std::size_t bytes, bool with_workers,
                            double load_factor) {
    const auto size = static_cast<double>(bytes);
    if (with_workers && !measured.with_workers.empty()) {
        if (covers(measured.with_workers, size)) return measured.with_workers.scaled_at(size);
        return measured.alone.scaled_at(size) * load_factor;
    }
    const SizeCurve& curve = covers(measured.in_pipeline, size) ? measured.in_pipeline : measured.alone;
    return curve.scaled_at(size) * load_factor;
}

const SizeCurve kNotMeasured;

}  // namespace

EmulatedDevice::EmulatedDevice(HardwareProfile profile, HostMode host, std::shared_ptr<ModeledMemoryBus> bus)
    : profile_(std::move(profile)),
      host_(host),
      bus_(bus ? std::move(bus) : std::make_shared<ModeledMemoryBus>(profile_.under_load)) {}

DeviceInfo emulated_device_info(const HardwareProfile& profile) {
    // The host mode and profile are said by whoever prints this; the detail says what it models.
    return DeviceInfo{DeviceKind::Emulated, profile.description, profile.name, "modelled on " + profile.link_name, ""};
}

DeviceInfo EmulatedDevice::info() const { return emulated_device_info(profile_); }

void EmulatedDevice::prepare(std::size_t) {}

void EmulatedDevice::hold_for_modeled_cost(TimeNs start, double cost_us) const {
    if (host_ != HostMode::Modeled) return;
    const TimeNs cost = us_to_ns(cost_us);
    // The real call (mapping and locking pages) took longer than the model gives it.
    if (lag_) lag_->add(now_ns() - (start + cost));
    sleep_until_ns(start + cost, stop_);
}

void EmulatedDevice::set_stop(std::stop_token stop) {
    on_stop_.reset();
    stopped_at_ = kNever;
    stop_ = std::move(stop);
    on_stop_.emplace(stop_, std::function<void()>([this] { stop_time(); }));
}

TimeNs EmulatedDevice::stop_time() {
    if (!stop_.stop_requested()) return kNever;
    TimeNs seen = stopped_at_.load();
    if (seen == kNever) stopped_at_.compare_exchange_strong(seen, now_ns());
    return stopped_at_.load();
}

LockTiming EmulatedDevice::lock_timing() const {
    return host_ == HostMode::Modeled ? LockTiming::OnFault : LockTiming::Now;
}

bool EmulatedDevice::waits_for_device(DriverCall call) const {
    const PageLockingWaits& w = profile_.waits_for_device;
    switch (call) {
        case DriverCall::HostAlloc: return w.host_alloc;
        case DriverCall::FreeHost: return w.free_host;
        case DriverCall::HostRegister: return w.host_register;
        case DriverCall::HostUnregister: return w.host_unregister;
        case DriverCall::Copy:
        case DriverCall::Launch: return false;
    }
    return false;
}

TimeNs EmulatedDevice::driver_free_for(DriverCall call) const {
    const auto blocked = [call](const DriverWaiters& w) {
        switch (call) {
            case DriverCall::HostAlloc: return w.host_alloc;
            case DriverCall::FreeHost: return w.free_host;
            case DriverCall::HostRegister: return w.host_register;
            case DriverCall::HostUnregister: return w.host_unregister;
            case DriverCall::Copy: return w.copies;
            case DriverCall::Launch: return w.launches;
        }
        return false;
    };
    const DriverLock& lock = profile_.driver_lock;
    TimeNs free_at = 0;
    for (const auto& [waiters, ends] : {std::pair{&lock.during_host_alloc, host_alloc_ends_},
                                        std::pair{&lock.during_free_host, free_host_ends_},
                                        std::pair{&lock.during_host_register, host_register_ends_},
                                        std::pair{&lock.during_host_unregister, host_unregister_ends_},
                                        std::pair{&lock.while_free_waits, free_wait_ends_},
                                        std::pair{&lock.while_unregister_waits, unregister_wait_ends_}})
        if (blocked(*waiters)) free_at = std::max(free_at, ends);
    return free_at;
}

TimeNs& EmulatedDevice::held_until(DriverCall call) {
    switch (call) {
        case DriverCall::HostAlloc: return host_alloc_ends_;
        case DriverCall::FreeHost: return free_host_ends_;
        case DriverCall::HostRegister: return host_register_ends_;
        case DriverCall::HostUnregister: return host_unregister_ends_;
        case DriverCall::Copy:
        case DriverCall::Launch: break;  // never page-locking calls
    }
    return host_unregister_ends_;
}

TimeNs EmulatedDevice::wait_for_driver(DriverCall call) {
    TimeNs begin = now_ns();
    {
        std::lock_guard lock(mutex_);
        begin = std::max(begin, driver_free_for(call));
    }
    sleep_until_ns(begin, stop_);
    return begin;
}

TimeNs EmulatedDevice::enter_page_locking(DriverCall call, double cost_us) {
    TimeNs begin = now_ns();
    {
        std::lock_guard lock(mutex_);
        begin = std::max(begin, driver_free_for(call));
        if (waits_for_device(call)) {
            const TimeNs device_idle = std::max(copy_engine_free_at_, sms_free_at_);
            // A free or an unregister waiting for the GPU holds the driver for as long.
            if (call == DriverCall::FreeHost) free_wait_ends_ = std::max(free_wait_ends_, device_idle);
            if (call == DriverCall::HostUnregister) unregister_wait_ends_ = std::max(unregister_wait_ends_, device_idle);
            begin = std::max(begin, device_idle);
        }
        // The call holds it until its end: its own cost where the host is modelled, else until
        // it returns (leave_page_locking).
        TimeNs& held = held_until(call);
        held = std::max(held, begin + (host_ == HostMode::Modeled ? us_to_ns(cost_us) : 0));
    }
    sleep_until_ns(begin, stop_);
    return begin;
}

void EmulatedDevice::leave_page_locking(DriverCall call, TimeNs begin, double cost_us) {
    hold_for_modeled_cost(begin, cost_us);
    std::lock_guard lock(mutex_);
    TimeNs& held = held_until(call);
    held = std::max(held, now_ns());
}

PinnedAllocation EmulatedDevice::allocate_pinned(std::size_t bytes) {
    const double cost_us = page_locking_cost_us(
        {profile_.pipeline_host_alloc_workers_us, profile_.pipeline_host_alloc_us, profile_.host_alloc_us}, bytes,
        loader_workers_ > 0, bus_->factor_now(ModeledMemoryBus::Traffic::HostAlloc));
    const TimeNs begin = enter_page_locking(DriverCall::HostAlloc, cost_us);
    PinnedAllocation allocation;
    if (placement_.policy == MemoryPlacement::FirstTouch) {
        allocation = map_locked(bytes, lock_timing());
    } else {
        // Bound to its nodes before any page is faulted in; locking (or populating) faults them there.
        allocation = PinnedAllocation{map_pages(bytes), round_to_pages(bytes), false};
        try {
            place_pages(allocation.ptr, allocation.bytes, placement_, false);
        } catch (...) {
            unmap_locked(allocation);
            leave_page_locking(DriverCall::HostAlloc, begin, 0);
            throw;
        }
        allocation.locked = lock_range(allocation.ptr, allocation.bytes, lock_timing());
    }
    if (lock_timing() == LockTiming::OnFault) populator_.populate(allocation.ptr, allocation.bytes);
    leave_page_locking(DriverCall::HostAlloc, begin, cost_us);
    return allocation;
}

void EmulatedDevice::free_pinned(const PinnedAllocation& allocation) {
    const double cost_us = profile_.free_host_us.scaled_at(static_cast<double>(allocation.bytes)) *
                           bus_->factor_now(ModeledMemoryBus::Traffic::HostAlloc);
    const TimeNs begin = enter_page_locking(DriverCall::FreeHost, cost_us);
    populator_.forget(allocation.ptr);
    unmap_locked(allocation);
    leave_page_locking(DriverCall::FreeHost, begin, cost_us);
}

bool EmulatedDevice::register_host(void* ptr, std::size_t bytes) {
    const double cost_us =
        page_locking_cost_us({kNotMeasured, profile_.pipeline_host_register_us, profile_.host_register_us}, bytes,
                             false, bus_->factor_now(ModeledMemoryBus::Traffic::HostRegister));
    const TimeNs begin = enter_page_locking(DriverCall::HostRegister, cost_us);
    if (host_ == HostMode::Modeled)
        bus_->memory_map().hold_until(begin + us_to_ns(cost_us * profile_.unmap_waits_for_host_register));
    place_pages(ptr, bytes, placement_, true);  // pages already written move to their node
    const bool locked = lock_range(ptr, bytes, lock_timing());
    if (lock_timing() == LockTiming::OnFault) populator_.populate(ptr, bytes);
    leave_page_locking(DriverCall::HostRegister, begin, cost_us);
    return locked;
}

void EmulatedDevice::unregister_host(void* ptr, std::size_t bytes) {
    const double cost_us = profile_.host_unregister_us.scaled_at(static_cast<double>(bytes)) *
                           bus_->factor_now(ModeledMemoryBus::Traffic::HostRegister);
    const TimeNs begin = enter_page_locking(DriverCall::HostUnregister, cost_us);
    populator_.forget(ptr);
    unlock_range(ptr, bytes);
    leave_page_locking(DriverCall::HostUnregister, begin, cost_us);
}

OpId EmulatedDevice::copy_to_device(const HostSource& source, std::uint64_t batch) {
    const TimeNs issued = wait_for_driver(DriverCall::Copy);
    if (source.pinned) return issue_copy(source, batch, issued, 1.0);
    // The calling thread stages a pageable copy through host memory: the profile's rate is for
    // bytes in the caches, as the bandwidth sweep copies them. A batch a worker handed over is
    // read from memory, slower still while other modelled threads stream through it.
    // Either way it takes its share of the machine's memory from the streams running.
    const double bytes = static_cast<double>(source.bytes);
    auto staging = bus_->use(
        source.cached ? ModeledMemoryBus::Traffic::Fill : ModeledMemoryBus::Traffic::PageableFromMemory, 0, bytes);
    const double factor = source.cached ? 1.0 : staging.factor();
    const double rate = profile_.h2d_bytes_per_s(bytes, false) * factor;
    return issue_copy(source, batch, issued, staging.rate_sharing_memory(rate, ModeledMemoryBus::Stream::Copy) / rate * factor);
}

OpId EmulatedDevice::issue_copy(const HostSource& source, std::uint64_t batch, TimeNs issued, double rate_factor) {
    const double bytes = static_cast<double>(source.bytes);
    const auto duration =
        duration_ns(bytes / (profile_.h2d_bytes_per_s(bytes, source.pinned) * rate_factor) * 1e9 *
                    cross_node_slowdown(source.remote_fraction, profile_.cross_node_h2d_factor));
    TimeNs hold_until = issued + us_to_ns(profile_.copy_call_us);
    OpId id = 0;
    {
        std::lock_guard lock(mutex_);
        TimeNs start = std::max({issued, copy_engine_free_at_});
        // In stream order behind the kernels queued before it; a pageable copy on such a device too.
        if (copies_on_ == CopyStream::Compute || (!source.pinned && !profile_.pageable_overlaps_compute))
            start = std::max(start, sms_free_at_);
        const TimeNs end = start + duration;
        copy_engine_free_at_ = end;
        id = next_op_++;
        copy_stream_.push_back({id, OpKind::H2D, batch, source.bytes, start, end});
        ops_[id] = {end, source.bytes};
        // The driver stages pageable memory through its own pinned buffers while the caller waits.
        if (!source.pinned)
            hold_until = std::max(hold_until, start + duration_ns(profile_.pageable_hold_fraction *
                                                                   static_cast<double>(duration)));
    }
    sleep_until_ns(hold_until, stop_);
    return id;
}

OpId EmulatedDevice::launch_compute(OpId after, std::uint64_t batch, double gpu_us) {
    const TimeNs issued = wait_for_driver(DriverCall::Launch);
    OpId id = 0;
    {
        std::lock_guard lock(mutex_);
        auto copy = ops_.find(after);
        const std::uint64_t bytes = copy == ops_.end() ? 0 : copy->second.bytes;
        const TimeNs read = duration_ns(static_cast<double>(bytes) / (profile_.device_read_gb_per_s * 1e9) * 1e9);
        const TimeNs start = std::max({issued, end_of(after), sms_free_at_});
        const TimeNs end = start + read + us_to_ns(gpu_us);
        sms_free_at_ = end;
        id = next_op_++;
        compute_stream_.push_back({id, OpKind::Compute, batch, bytes, start, end});
        ops_[id] = {end, bytes};
    }
    sleep_until_ns(issued + us_to_ns(profile_.copy_call_us), stop_);
    return id;
}

TimeNs EmulatedDevice::end_of(OpId op) {
    if (op == 0) return 0;
    auto it = ops_.find(op);
    return it == ops_.end() ? 0 : std::min(it->second.end, stop_time());  // forgotten ops have ended
}

bool EmulatedDevice::is_complete(OpId op) {
    std::lock_guard lock(mutex_);
    return end_of(op) <= now_ns();
}

void EmulatedDevice::wait(OpId op) {
    TimeNs end = 0;
    {
        std::lock_guard lock(mutex_);
        end = end_of(op);
    }
    sleep_until_ns(end, stop_);
}

void EmulatedDevice::collect_completed(std::vector<CompletedOp>& out) {
    const TimeNs now = now_ns();
    const TimeNs stop = stop_time();
    std::lock_guard lock(mutex_);
    for (auto* stream : {&copy_stream_, &compute_stream_}) {
        while (!stream->empty() && std::min(stream->front().end, stop) <= now) {
            CompletedOp op = stream->front();
            stream->pop_front();
            if (op.start >= stop) continue;  // the stop came first: it never ran
            op.end = std::min(op.end, stop);
            out.push_back(op);
        }
    }
    // Forget ops that have ended, oldest first; end_of() reports unknown ops as ended.
    while (oldest_uncollected_ < next_op_) {
        auto it = ops_.find(oldest_uncollected_);
        if (it != ops_.end() && std::min(it->second.end, stop) > now) break;
        if (it != ops_.end()) ops_.erase(it);
        ++oldest_uncollected_;
    }
}

void EmulatedDevice::synchronize() {
    TimeNs end = 0;
    {
        std::lock_guard lock(mutex_);
        end = std::min(std::max(copy_engine_free_at_, sms_free_at_), stop_time());
    }
    sleep_until_ns(end, stop_);
}

}  // namespace pinscope
