// SPDX-License-Identifier: GPL-3.0-or-later
// Host work modelled from a hardware profile: each piece of work takes one of the profile's cores
// for the time the profile says, and the thread waits it out. Buffers are never touched (a batch
// registered in place, which is real, is only released).
#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>

#include "engine/clock/ModelledWait.h"
#include "engine/clock/SteadyClock.h"
#include "engine/device/HardwareProfile.h"
#include "engine/host/HostWork.h"
#include "engine/host/ModeledMemoryBus.h"

namespace pinscope {

std::unique_ptr<HostWork> make_real_host_work(std::stop_token stop);

namespace {

constexpr TimeNs kLateness = 1'000'000;  // how late a thread may be and still start at `ready`

// The profiled machine's cores: more busy threads than cores queue for one, as they would there.
class ModeledCores {
public:
    ModeledCores(int cores, std::stop_token stop, std::shared_ptr<ModelLag> lag)
        : free_(cores), stop_(std::move(stop)), lag_(std::move(lag)) {}
    // `inside`: real work done within the modelled duration (none adds to it unless it takes longer);
    // done even when the run stops first. `not_before`: the work itself waits until then, inside
    // its span (a call blocked on a lock another thread holds).
    WorkTimes run_for(TimeNs duration, TimeNs ready, const std::function<void()>& inside = {}, TimeNs not_before = 0) {
        {
            std::unique_lock lock(mutex_);
            if (free_ == 0) {
                wait_until(lock, [&] { return free_ > 0 || stop_.stop_requested(); },
                           [&] { freed_.wait(lock, stop_, [&] { return free_ > 0; }); });
                if (free_ == 0) {  // stopped while it queued
                    lock.unlock();
                    if (inside) inside();
                    return {now_ns(), now_ns()};
                }
                ready = now_ns();  // it really waited for a core
            }
            --free_;
        }
        // In modelled time a thread gets to its work when the model says; on the steady clock it
        // may come late, and then starts where its input was ready, unless later than the slack.
        const bool modelled_time = RunClock::taking_part() != nullptr;
        const TimeNs earliest = modelled_time ? now_ns() : now_ns() - kLateness;
        const TimeNs start = std::max(ready, earliest);
        if (lag_ && !modelled_time) lag_->add(earliest - ready);  // came later than the slack allows
        if (inside) inside();
        const TimeNs end = std::max(start, not_before) + duration;
        const bool done = sleep_until_ns(end, stop_);
        {
            std::lock_guard lock(mutex_);
            ++free_;
        }
        freed_.notify_one();
        return {start, done ? end : std::clamp(now_ns(), start, end)};
    }

private:
    std::mutex mutex_;
    std::condition_variable_any freed_;
    int free_;
    std::stop_token stop_;
    std::shared_ptr<ModelLag> lag_;
};

TimeNs seconds_to_ns(double s) { return duration_ns(s * 1e9); }

// What freeing a worker's batch of new pages costs by size: as calibrate measured it in a running
// pipeline where it did, else alone. A profile calibrated before batches had pages of their own
// measured frees of allocator memory, which glibc maps, as a worker's batch is now, only from its
// largest mmap threshold (32 MiB) on: those points, linear in size below.
SizeCurve free_new_pages_curve(const HardwareProfile& profile) {
    if (!profile.pipeline_free_us.empty()) return profile.pipeline_free_us;
    if (!profile.free_new_pages_us.empty()) return profile.free_new_pages_us;
    constexpr double kAlwaysMapped = 32.0 * 1024 * 1024;
    SizeCurve mapped;
    const SizeCurve& measured = profile.free_pageable_us;
    for (std::size_t i = 0; i < measured.sizes_bytes.size(); ++i)
        if (measured.sizes_bytes[i] >= kAlwaysMapped) {
            mapped.sizes_bytes.push_back(measured.sizes_bytes[i]);
            mapped.values.push_back(measured.values[i]);
        }
    return mapped.empty() ? measured : mapped;
}

// A worker's rate in calibrate's pool run against the model's own (`modelled`), at each batch size
// the run reached; empty where the profile has no such run.
SizeCurve worker_factors(const SizeCurve& measured, double modelled) {
    if (!(modelled > 0)) return {};
    SizeCurve factors = measured;
    for (double& value : factors.values) value /= modelled;
    return factors;
}

class ModeledHostWork final : public HostWork {
public:
    ModeledHostWork(const HardwareProfile& profile, std::shared_ptr<ModeledMemoryBus> bus, std::stop_token stop,
                    std::shared_ptr<ModelLag> lag, int loader_workers)
        : cores_(profile.host_cores, std::move(stop), std::move(lag)),
          fill_bytes_per_s_((profile.fill_gb_per_s > 0 ? profile.fill_gb_per_s : profile.memcpy_gb_per_s) * 1e9),
          pinned_bytes_per_s_(profile.memcpy_to_pinned_gb_per_s * 1e9),
          fresh_bytes_per_s_((profile.first_touch_gb_per_s > 0 ? profile.first_touch_gb_per_s : profile.memcpy_gb_per_s) *
                             1e9),
          free_allocated_us_(profile.free_pageable_us),
          free_new_pages_us_(free_new_pages_curve(profile)),
          new_pages_free_slows_(profile.pipeline_free_us.empty()),
          cross_node_memcpy_factor_(profile.cross_node_memcpy_factor),
          by_size_(profile.by_batch_size),
          bus_(std::move(bus)) {
        if (loader_workers == 0) return;
        worker_fill_ = worker_factors(profile.pipeline_worker_fill_gb_per_s, fill_bytes_per_s_ / 1e9);
        worker_collate_ = profile.pipeline_worker_collate_gb_per_s;
    }

    // A sample is written once (at the profile's fill rate, a worker's as calibrate's pool run had
    // its workers fill, slower while others stream, and no faster than the machine's memory lets
    // that many streams go) and then worked on for cpu_us.
    WorkTimes load_samples(std::byte*, std::size_t sample_bytes, std::uint32_t count, double cpu_us, std::uint64_t,
                           TimeNs ready) override {
        const double batch_bytes = static_cast<double>(sample_bytes) * count;
        const double as_worker = worker_fill_.empty() ? 1.0 : worker_fill_.at(batch_bytes);
        const double write_s = static_cast<double>(sample_bytes) / (fill_bytes_per_s_ * as_worker);
        const double cpu_s = cpu_us * 1e-6;
        // Loads that mostly write memory contend for it; those that mostly compute do not.
        if (write_s < cpu_s) return cores_.run_for(seconds_to_ns((write_s + cpu_s) * count), ready);
        auto use = bus_->use(ModeledMemoryBus::Traffic::Fill);
        const double write_alone_s = write_s / use.factor();
        // It streams as much as it writes on average, CPU work included.
        const double average_bytes_per_s = static_cast<double>(sample_bytes) / (write_alone_s + cpu_s);
        const double slowed = average_bytes_per_s /
                              use.rate_sharing_memory(average_bytes_per_s, ModeledMemoryBus::Stream::Write);
        return cores_.run_for(seconds_to_ns((write_alone_s * slowed + cpu_s) * count), ready);
    }
    WorkTimes copy(void*, const void*, std::size_t bytes, HostCopy kind, TimeNs ready, double remote_fraction) override {
        const bool fresh = kind == HostCopy::CollateNewPages || kind == HostCopy::CollateAllocated;
        auto use = bus_->use(fresh                                ? ModeledMemoryBus::Traffic::FirstTouch
                                   : kind == HostCopy::PinFromMemory ? ModeledMemoryBus::Traffic::PinFromMemory
                                                                      : ModeledMemoryBus::Traffic::Fill);
        const double size = static_cast<double>(bytes);
        // A worker collates at the pool run's workers' rate, which holds that run's load on memory.
        const bool as_worker = kind == HostCopy::CollateNewPages && !worker_collate_.empty();
        const double alone = as_worker ? worker_collate_.at(size) * 1e9
                                       : (fresh ? fresh_bytes_per_s_ : pinned_bytes_per_s_) *
                                             by_size_.at(size_factors(kind), size) * use.factor();
        const double rate = use.rate_sharing_memory(alone, ModeledMemoryBus::Stream::Copy);
        const double slowdown = cross_node_slowdown(remote_fraction, cross_node_memcpy_factor_);
        return cores_.run_for(seconds_to_ns(static_cast<double>(bytes) / rate * slowdown), ready);
    }
    // What freeing the batch costs on the profiled machine is charged. Only a batch registered in
    // place was allocated (page locking needs real memory); it is released within that time. A
    // worker's batch freed as calibrate measured it in a running pipeline costs that whatever runs
    // beside it (on the H100 VMs the pipeline's frees cost as much with one worker as with seven).
    // A batch of new pages is unmapped, which waits while another thread's cudaHostRegister holds
    // the memory map (ModeledMemoryMap).
    WorkTimes free_batch(PageableBuffer& buffer, std::size_t bytes, BatchMemory memory, int worker_threads,
                         TimeNs ready) override {
        const auto release = [&buffer] { buffer.reset(); };
        const bool new_pages = memory == BatchMemory::NewPages;
        const SizeCurve& cost = new_pages ? free_new_pages_us_ : free_allocated_us_;
        if (cost.empty()) {
            release();
            return {ready, ready};
        }
        const auto use = bus_->use(ModeledMemoryBus::Traffic::Free, worker_threads);
        const double slowed = new_pages && !new_pages_free_slows_ ? 1.0 : use.factor();
        const double cost_us = cost.scaled_at(static_cast<double>(bytes)) * slowed;
        return cores_.run_for(seconds_to_ns(cost_us * 1e-6), ready, release,
                              new_pages ? bus_->memory_map().free_at() : 0);
    }
    bool touches_memory() const override { return false; }

private:
    // The calibrated rate's factor at each batch size for this kind of copy.
    const std::vector<double>& size_factors(HostCopy kind) const {
        return kind == HostCopy::CollateNewPages    ? by_size_.collate_new_pages
               : kind == HostCopy::CollateAllocated ? by_size_.collate
                                                    : by_size_.pin;
    }

    ModeledCores cores_;
    double fill_bytes_per_s_;
    double pinned_bytes_per_s_;
    double fresh_bytes_per_s_;
    SizeCurve free_allocated_us_;
    SizeCurve free_new_pages_us_;
    bool new_pages_free_slows_;  // by the under-load factor: not when measured with the workers running
    double cross_node_memcpy_factor_;
    HostSizeFactors by_size_;
    SizeCurve worker_fill_;     // worker_factors of the pool run's filling, in a run with workers
    SizeCurve worker_collate_;  // the pool run's collating, in a run with workers
    std::shared_ptr<ModeledMemoryBus> bus_;
};

}  // namespace

std::unique_ptr<HostWork> make_host_work(HostMode mode, const HardwareProfile& profile,
                                         std::shared_ptr<ModeledMemoryBus> bus, std::stop_token stop,
                                         std::shared_ptr<ModelLag> lag, int loader_workers) {
    if (mode == HostMode::Real) return make_real_host_work(std::move(stop));
    if (!bus) bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    return std::make_unique<ModeledHostWork>(profile, std::move(bus), std::move(stop), std::move(lag), loader_workers);
}

}  // namespace pinscope
