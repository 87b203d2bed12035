// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One step of a run as the window sees it: what is new since the previous frame, and where the
// run stands now. Built whole by the run's observer thread and never changed after; the live
// engine is one source of frames, a fixed list another (tests), a recorded run a third.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/metrics/Metrics.h"
#include "engine/runner/RunRecord.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/Trace.h"

namespace pinscope {

// Where a recorded run comes from, for the window to say so.
struct RecordedFrom {
    std::string file;
    std::int64_t run = 0;      // its number in the file, from 1
    std::int64_t runs = 0;     // how many runs the file holds
    std::string host_name;     // the machine it ran on
    std::string started_utc;   // "2026-11-25T10:15:30.123Z"
    bool finished = true;      // false: the recording stops before the run's end
};

struct RunFrame {
    bool first = false;  // the run's first frame: views start afresh from `origin`
    bool ended = false;  // the run's last frame: nothing follows, the summary is final
    TimeNs origin = 0;   // time zero of the run, on the spans' clock
    TimeNs time = 0;     // the run's now (its end once ended), on the same clock
    // New since the previous frame, in the order they were recorded.
    std::vector<Span> spans;
    std::vector<CounterSample> counters;
    std::vector<Marker> markers;
    Metrics window;  // the sliding window ending at `time`
    Bottleneck window_bottleneck;  // what bounded throughput in that window
    // The whole run so far: configuration and device in force, host, pinned pool, NUMA usage,
    // warnings, error.
    RunSummary summary;
    std::shared_ptr<const MachineTopology> topology;  // in force; null on a run without one
    std::shared_ptr<const RecordedFrom> recorded;     // null: the live engine's run

    double seconds() const { return static_cast<double>(time - origin) * 1e-9; }
    double seconds_of(TimeNs t) const { return static_cast<double>(t - origin) * 1e-9; }
    // The NUMA footprint at `time`, as the exports sample it.
    NumaSample numa_sample() const;
};

}  // namespace pinscope
