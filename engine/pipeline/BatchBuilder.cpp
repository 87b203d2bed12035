// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/pipeline/BatchBuilder.h"

#include <algorithm>

#include "engine/clock/SteadyClock.h"
#include "engine/numa/ThreadPlacement.h"

namespace pinscope {
namespace {

// Page-locked allocation happens between stages; if it made the thread wait, the next stage's
// input was ready no earlier than when it returned.
TimeNs ready_after(TimeNs ready, TimeNs before_alloc) {
    constexpr TimeNs kNoticeable = 50'000;
    const TimeNs now = now_ns();
    return now - before_alloc > kNoticeable ? std::max(ready, now) : ready;
}

}  // namespace

BatchBuilder::BatchBuilder(const LoaderConfig& config, HostWork& host, PinnedPool& pool,
                           const std::atomic<bool>& stop, NumaTracker* numa)
    : config_(config), host_(host), pool_(pool), stop_(stop), numa_(numa) {}

WorkTimes BatchBuilder::copy(void* dst, const void* src, std::size_t bytes, HostCopy kind, TimeNs ready) {
    const bool into_pinned = kind != HostCopy::CollateNewPages && kind != HostCopy::CollateAllocated;
    const double remote = numa_ != nullptr ? numa_->destination_remote_share(dst, into_pinned) : 0.0;
    const WorkTimes times = host_.copy(dst, src, bytes, kind, ready, remote);
    if (numa_ != nullptr) numa_->count_host_copy(dst, bytes, into_pinned);
    return times;
}

std::optional<Batch> BatchBuilder::build(std::uint64_t index, TimeNs ready, LaneRecorder& recorder) {
    if (host_.touches_memory() && !samples_) samples_ = allocate_pageable(config_.batch_bytes());
    Batch batch;
    batch.index = index;
    batch.bytes = config_.batch_bytes();
    const bool into_pinned = config_.pin_memory && config_.pin_mode == PinMode::Worker;
    ready = std::max(ready, last_end_);
    if (into_pinned) {
        const TimeNs before = now_ns();
        batch.pinned = pool_.allocate(batch.bytes, stop_, &recorder, index);
        if (!batch.pinned) return std::nullopt;
        ready = ready_after(ready, before);
    } else if (host_.touches_memory() || (config_.pin_memory && config_.pin_mode == PinMode::Register)) {
        // Modelled host work never touches pageable batches, so they are only allocated where
        // something real happens to them: real work, or page-locking in place.
        batch.pageable = allocate_batch(batch.bytes, batch_memory(config_));
    }

    const WorkTimes load = host_.load_samples(samples_.get(), config_.sample_bytes(), config_.batch_size,
                                              config_.cpu_us_per_sample, index * config_.batch_size,
                                              ready);
    recorder.record(Stage::Load, index, batch.bytes, load.start, load.end);

    void* destination = into_pinned ? batch.pinned->ptr : static_cast<void*>(batch.pageable.get());
    const WorkTimes collate =
        copy(destination, samples_.get(), batch.bytes,
             into_pinned                                                ? HostCopy::CollatePinned
             : batch_memory(config_) == BatchMemory::NewPages ? HostCopy::CollateNewPages
                                                                        : HostCopy::CollateAllocated,
             load.end);
    recorder.record(Stage::Collate, index, batch.bytes, collate.start, collate.end);
    batch.written_on_node = current_host_cpu().node;
    batch.ready_at = last_end_ = collate.end;
    return batch;
}

bool BatchBuilder::pin(Batch& batch, LaneRecorder& recorder) {
    if (batch.pinned) return true;
    const TimeNs before = now_ns();
    switch (config_.pin_mode) {
        case PinMode::Register:
            // Locked in place: no copy, but the registration itself costs (recorded as the pin).
            batch.pinned = pool_.register_buffer(std::move(batch.pageable), batch.bytes, stop_, &recorder, batch.index,
                                                 batch.written_on_node);
            return batch.pinned.has_value();
        case PinMode::Alloc:
            batch.pinned = pool_.allocate_uncached(batch.bytes, stop_, &recorder, batch.index);
            break;
        case PinMode::Pool:
        case PinMode::Worker:
            batch.pinned = pool_.allocate(batch.bytes, stop_, &recorder, batch.index);
            break;
    }
    if (!batch.pinned) return false;
    const bool from_worker = config_.num_workers > 0;
    const WorkTimes pin = copy(batch.pinned->ptr, batch.pageable.get(), batch.bytes,
                               from_worker ? HostCopy::PinFromMemory : HostCopy::PinCached,
                               ready_after(std::max(batch.ready_at, last_end_), before));
    recorder.record(Stage::Pin, batch.index, batch.bytes, pin.start, pin.end);
    const WorkTimes freed = host_.free_batch(batch.pageable, batch.bytes, batch_memory(config_), config_.num_workers, pin.end);
    if (freed.end > freed.start) recorder.record(Stage::Free, batch.index, batch.bytes, freed.start, freed.end);
    batch.ready_at = last_end_ = freed.end;  // handed on after the free, as PyTorch's pin thread does
    return true;
}

}  // namespace pinscope
