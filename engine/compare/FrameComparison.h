// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two runs compared from their frames as they come in (the window's "Compare with..."): each run's
// summary so far, its spans' durations by stage, and where each batch began, so that the two runs
// can be lined up at a batch. The figures are RunComparison's, as pinscope-cli compare prints them;
// the stages' figures come once both runs are in.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "engine/compare/RunComparison.h"
#include "engine/runner/RunFrame.h"

namespace pinscope {

enum class RunSide { A, B };

// Where each batch's first span began, from the run's start.
class BatchStarts {
public:
    void add(const std::vector<Span>& spans, TimeNs origin);
    void clear();
    std::optional<TimeNs> start_of(std::uint64_t batch) const;
    std::optional<std::uint64_t> last_batch() const { return last_; }

private:
    std::unordered_map<std::uint64_t, TimeNs> starts_;
    std::optional<std::uint64_t> last_;
};

class FrameComparison {
public:
    // A frame of one run, in order; its first starts that side afresh.
    void take(RunSide side, const RunFrame& frame);
    bool has_run(RunSide side) const { return of(side).summary.has_value(); }
    bool ended(RunSide side) const { return of(side).ended; }
    bool both_ended() const { return ended(RunSide::A) && ended(RunSide::B); }
    // Works the comparison out from what was taken (the stages once both runs are in) and keeps it.
    const RunComparison& update();
    const RunComparison& comparison() const { return comparison_; }
    // The run's summary as its last frame gave it (empty before its first frame).
    const std::optional<RunSummary>& summary(RunSide side) const { return of(side).summary; }
    // Seconds to add to A's time to reach the same moment of B's run when both are lined up at the
    // start of `batch` (B's batch began that much later than A's); none when either run lacks it.
    std::optional<double> shift_at_batch(std::uint64_t batch) const;
    // Where `batch` began in the run, from its start.
    std::optional<TimeNs> batch_start(RunSide side, std::uint64_t batch) const { return of(side).batches.start_of(batch); }
    // The highest batch number both runs have begun.
    std::optional<std::uint64_t> last_common_batch() const;

private:
    struct Side {
        std::optional<RunSummary> summary;
        StageDurationSamples stages;
        BatchStarts batches;
        bool ended = false;
    };
    Side& of(RunSide side) { return sides_[side == RunSide::A ? 0 : 1]; }
    const Side& of(RunSide side) const { return sides_[side == RunSide::A ? 0 : 1]; }

    Side sides_[2];
    RunComparison comparison_;
};

}  // namespace pinscope
