// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's steady figures for validate, from the spans that ended after `from`.
//  - Throughput: batches per second from the kernels, as (n - 1) over the time from the first of
//    them to the last. Counting the batches that end in a window instead is off by up to one
//    batch, 10 % of a slow cell's figure in a short run.
//  - The host's work per batch: the median over batches of their Load and Collate spans together,
//    on whichever lane made them (a worker, or the consumer without workers). It is the host as it
//    ran during the cell, which a reading before the cell only hints at.
//  - Each stage's time per batch on each kind of lane: the stage's spans that ended after `from`,
//    summed, over the kernels that did. Where an error comes from: on an H200 one cell's consumer
//    staged each batch in 228 us and the emulated one in 167.
//  - The consumer's time per batch in no traced stage: from the first kernel's end after `from`
//    to the last's, the consumer's time outside every span of its own, over the batches between.
//    What its driver calls (a copy's or a launch's issue, an event) and its loop took: on H200 VMs
//    a consumer with pin_mode register spent 267 us a batch there, and the model's 78.
#include <vector>

#include "engine/trace/Trace.h"

namespace pinscope {

struct StageTime {
    Stage stage = Stage::Load;
    LaneKind lane = LaneKind::Worker;
    double us_per_batch = 0;
    friend bool operator==(const StageTime&, const StageTime&) = default;
};
using StageTimes = std::vector<StageTime>;  // by stage, then lane kind; those with no span left out

struct SteadyFigures {
    double batches_per_s = 0;      // 0 when fewer than two kernels ended after `from`
    double host_us_per_batch = 0;  // 0 when no batch was both loaded and collated after `from`
    StageTimes stages = {};        // empty when no kernel ended after `from`
    double consumer_untraced_us_per_batch = 0;  // 0 when fewer than two kernels ended after `from`
};

SteadyFigures steady_figures(const Trace& trace, TimeNs from);

// Each stage and lane's median over runs, a run without it counting 0 us.
StageTimes median_stage_times(const std::vector<StageTimes>& runs);

}  // namespace pinscope
