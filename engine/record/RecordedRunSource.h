// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A recorded run as a run source, for the window: the first frame has the run's configuration,
// device and topology and nothing run yet; each next one the spans that ended in its stretch of
// the run (kFrameStretch, as a live window polls, or fewer if more than kFrameSpans ended in it),
// with the counters, markers and NUMA footprint of that stretch and the figures so far, so that
// the plots get the points a live window would have drawn; the last is marked ended and holds the
// final summary. Frames come as fast as they are asked for. Times are on the recorded run's
// clock, with its origin, so that RunFrame::seconds() reads from zero. Every frame says where the
// run was recorded (RunFrame::recorded).
#include <cstddef>
#include <memory>

#include "engine/analysis/SegmentTracker.h"
#include "engine/metrics/MetricsTracker.h"
#include "engine/record/RecordingTables.h"
#include "engine/runner/RunSource.h"

namespace pinscope {

class RecordedRunSource : public RunSource {
public:
    static constexpr std::size_t kFrameSpans = 65536;
    static constexpr TimeNs kFrameStretch = 1'000'000'000 / 30;  // the live window's poll period

    // Loads the run's topology; throws RecordingError when it does not load.
    RecordedRunSource(std::shared_ptr<RecordingTables> tables, RunRow row);

    // A read that fails partway (a damaged file) ends the run there: the frame is marked ended
    // and its summary's error says what went wrong.
    std::shared_ptr<const RunFrame> next_frame() override;

private:
    std::shared_ptr<const RunFrame> first_frame();
    std::shared_ptr<const RunFrame> next_stretch();
    RunSummary summary_at(TimeNs now, bool ended);

    std::shared_ptr<RecordingTables> tables_;
    RunRow row_;
    std::shared_ptr<const MachineTopology> topology_;
    std::shared_ptr<const RecordedFrom> recorded_;
    MetricsTracker tracker_;
    SegmentTracker segments_;  // a run that did not finish has its segments' figures from the spans
    RecordingTables::SpanCursor cursor_;
    TimeNs previous_ = -1;  // from the origin: where the last frame's stretch ended
    NumaUsage usage_;       // the NUMA footprint at the last frame
    bool started_ = false;
    bool ended_ = false;
};

}  // namespace pinscope
