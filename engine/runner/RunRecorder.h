// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a run's data goes as it runs: the observer thread hands each recorder what it drains from
// the trace (every span, counter sample and marker, in the order drained) and each NUMA sample,
// so that nothing need be kept in memory for exports or recordings. The exporters
// (RunFileExports) are one; a recording database would be another.
#include <vector>

#include "engine/runner/RunRecord.h"
#include "engine/trace/Trace.h"

namespace pinscope {

class RunRecorder {
public:
    virtual ~RunRecorder() = default;
    // Before anything else, on the thread that starts the run: time zero of the run.
    virtual void begin(TimeNs origin) = 0;
    // From the run's observer thread only. Calls after finish() are to be ignored.
    virtual void record(const TraceDelta& delta) = 0;
    virtual void record(const NumaSample& sample) = 0;
    // By the recorder's owner once the run has ended (Runner::stop returned), with its summary.
    // Throws std::runtime_error when what was recorded cannot be kept.
    virtual void finish(const RunSummary& summary) = 0;
};

}  // namespace pinscope
