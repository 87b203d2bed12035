// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The live engine as a run source. The run's observer thread adds what it drained from the trace
// and where the run stands, every observer period; the reader takes all of it as one frame. The
// observer never waits for the reader: what a reader leaves untaken is bounded, the oldest spans
// going first (and counted as dropped).
#include <cstdint>
#include <memory>
#include <mutex>

#include "engine/runner/RunSource.h"

namespace pinscope {

class LiveRunSource : public RunSource {
public:
    static constexpr std::size_t kDefaultPendingSpans = 1u << 20;

    explicit LiveRunSource(TimeNs origin, std::size_t pending_spans = kDefaultPendingSpans);

    // Observer thread. `summary`, `window`, `window_bottleneck` and `topology` replace the previous
    // ones; `time` is the run's now; `ended` marks the last call.
    void add(const TraceDelta& delta, TimeNs time, const Metrics& window, const RunSummary& summary,
             std::shared_ptr<const MachineTopology> topology, bool ended, const Bottleneck& window_bottleneck = {});

    std::shared_ptr<const RunFrame> next_frame() override;

private:
    std::mutex mutex_;
    std::unique_ptr<RunFrame> pending_;  // null: nothing added since the last frame
    std::size_t pending_spans_cap_;
    std::uint64_t dropped_ = 0;          // spans let go from pending frames, over the run
    bool first_ = true;
    bool done_ = false;                  // the ended frame was taken
    TimeNs origin_;
};

}  // namespace pinscope
