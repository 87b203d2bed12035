// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The host stages of a batch, shared by the workers, the pin thread and (without workers) the
// consumer: load the samples, collate them, pin the batch.
#include <atomic>
#include <optional>

#include "engine/config/LoaderConfig.h"
#include "engine/host/HostWork.h"
#include "engine/memory/PinnedPool.h"
#include "engine/numa/NumaTracker.h"
#include "engine/pipeline/Batch.h"
#include "engine/trace/LaneRecorder.h"

namespace pinscope {

class BatchBuilder {
public:
    // `numa` (may be null) counts cross-node copies and gives modelled work their cross-node share.
    BatchBuilder(const LoaderConfig& config, HostWork& host, PinnedPool& pool, const std::atomic<bool>& stop,
                 NumaTracker* numa = nullptr);

    // Load and collate: into pageable memory, or with pin mode "worker" straight into a pool block.
    // `ready` is when the index arrived. nullopt when stopped while waiting for pinned memory.
    std::optional<Batch> build(std::uint64_t index, TimeNs ready, LaneRecorder& recorder);
    // The pin stage for a pageable batch: copy into a pool block or a fresh page-locked allocation,
    // or register the batch's own buffer in place. False when stopped while waiting.
    bool pin(Batch& batch, LaneRecorder& recorder);

private:
    // A collate or pin copy, its cross-node share given to the host work and counted.
    WorkTimes copy(void* dst, const void* src, std::size_t bytes, HostCopy kind, TimeNs ready);

    const LoaderConfig& config_;
    HostWork& host_;
    PinnedPool& pool_;
    const std::atomic<bool>& stop_;
    NumaTracker* numa_;
    PageableBuffer samples_;  // where samples are loaded before collate (real host work only)
    TimeNs last_end_ = 0;     // this thread's previous stage ended here
};

}  // namespace pinscope
