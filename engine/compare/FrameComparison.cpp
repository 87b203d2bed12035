// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compare/FrameComparison.h"

#include <algorithm>

namespace pinscope {

void BatchStarts::add(const std::vector<Span>& spans, TimeNs origin) {
    for (const Span& span : spans) {
        const TimeNs start = span.start - origin;
        const auto [it, inserted] = starts_.try_emplace(span.batch, start);
        if (!inserted && start < it->second) it->second = start;
        if (!last_ || span.batch > *last_) last_ = span.batch;
    }
}

void BatchStarts::clear() {
    starts_.clear();
    last_.reset();
}

std::optional<TimeNs> BatchStarts::start_of(std::uint64_t batch) const {
    const auto it = starts_.find(batch);
    if (it == starts_.end()) return std::nullopt;
    return it->second;
}

void FrameComparison::take(RunSide side, const RunFrame& frame) {
    Side& s = of(side);
    if (frame.first) {
        s.stages.clear();
        s.batches.clear();
        s.ended = false;
    }
    s.stages.add(frame.spans);
    s.batches.add(frame.spans, frame.origin);
    s.summary = frame.summary;
    s.ended = frame.ended;
}

const RunComparison& FrameComparison::update() {
    Side& a = of(RunSide::A);
    Side& b = of(RunSide::B);
    if (!a.summary || !b.summary) return comparison_ = {};
    // Sorting a million durations takes a while: the stages' figures only once both runs are in.
    const bool stages = a.ended && b.ended;
    comparison_ = compare_runs(*a.summary, *b.summary, stages ? a.stages.durations() : std::vector<StageDurations>{},
                               stages ? b.stages.durations() : std::vector<StageDurations>{});
    return comparison_;
}

std::optional<double> FrameComparison::shift_at_batch(std::uint64_t batch) const {
    const auto a = of(RunSide::A).batches.start_of(batch);
    const auto b = of(RunSide::B).batches.start_of(batch);
    if (!a || !b) return std::nullopt;
    return static_cast<double>(*b - *a) * 1e-9;
}

std::optional<std::uint64_t> FrameComparison::last_common_batch() const {
    const auto a = of(RunSide::A).batches.last_batch();
    const auto b = of(RunSide::B).batches.last_batch();
    if (!a || !b) return std::nullopt;
    return std::min(*a, *b);
}

}  // namespace pinscope
