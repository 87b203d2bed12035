#include "pipeline/BatchBuilder.h"

#include "clock/SteadyClock.h"

namespace pinscope {

BatchBuilder::BatchBuilder(const LoaderConfig& config, HostWork& host, PinnedPool& pool,
                           const std::atomic<bool>& stop)
    : config_(config), host_(host), pool_(pool), stop_(stop) {}

std::optional<Batch> BatchBuilder::build(std::uint64_t index, LaneRecorder& recorder) {
    if (host_.touches_memory() && !samples_) samples_ = allocate_pageable(config_.batch_bytes());
    Batch batch;
    batch.index = index;
    batch.bytes = config_.batch_bytes();
    const bool into_pinned = config_.pin_memory && config_.pin_mode == PinMode::Worker;
    if (into_pinned) {
        batch.pinned = pool_.allocate(batch.bytes, stop_, &recorder, index);
        if (!batch.pinned) return std::nullopt;
    } else {
        batch.pageable = allocate_pageable(batch.bytes);
    }

    TimeNs start = now_ns();
    host_.load_samples(samples_.get(), config_.sample_bytes(), config_.batch_size, config_.cpu_us_per_sample,
                       index * config_.batch_size);
    TimeNs end = now_ns();
    recorder.record(Stage::Load, index, batch.bytes, start, end);

    start = end;
    void* destination = into_pinned ? batch.pinned->ptr : static_cast<void*>(batch.pageable.get());
    host_.copy(destination, samples_.get(), batch.bytes, into_pinned);
    recorder.record(Stage::Collate, index, batch.bytes, start, now_ns());
    return batch;
}

bool BatchBuilder::pin(Batch& batch, LaneRecorder& recorder) {
    if (batch.pinned) return true;
    switch (config_.pin_mode) {
        case PinMode::Register:
            // Locked in place: no copy, but the registration itself costs (recorded as the pin).
            batch.pinned = pool_.register_buffer(std::move(batch.pageable), batch.bytes, stop_, &recorder, batch.index);
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
    const TimeNs start = now_ns();
    host_.copy(batch.pinned->ptr, batch.pageable.get(), batch.bytes, true);
    recorder.record(Stage::Pin, batch.index, batch.bytes, start, now_ns());
    batch.pageable.reset();
    return true;
}

}  // namespace pinscope
