// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/LaneSummary.h"

#include <algorithm>

namespace pinscope::ui {

namespace {
std::int64_t floor_div(TimeNs t, TimeNs d) { return t >= 0 ? t / d : -((-t + d - 1) / d); }
}  // namespace

void LaneSummary::add(const Span& span) {
    const TimeNs end = std::max(span.end, span.start);
    make_room(floor_div(span.start, bin_ns_), floor_div(end, bin_ns_));
    const auto stage = static_cast<std::size_t>(span.stage);
    for (std::int64_t k = floor_div(span.start, bin_ns_); k <= floor_div(end, bin_ns_); ++k) {
        const TimeNs overlap = std::min(end, (k + 1) * bin_ns_) - std::max(span.start, k * bin_ns_);
        if (overlap > 0) bins_[static_cast<std::size_t>(k - first_)][stage] += static_cast<float>(overlap);
    }
    earliest_ = spans_ == 0 ? span.start : std::min(earliest_, span.start);
    ++spans_;
}

// Grows the bins to cover [from_bin, to_bin], coarsening while that would exceed kMaxBins.
void LaneSummary::make_room(std::int64_t from_bin, std::int64_t to_bin) {
    if (bins_.empty()) first_ = from_bin;
    for (;;) {
        const std::int64_t lo = std::min(first_, from_bin);
        const std::int64_t hi = std::max(first_ + static_cast<std::int64_t>(bins_.size()) - 1, to_bin);
        if (hi - lo + 1 <= static_cast<std::int64_t>(kMaxBins)) {
            if (lo < first_) bins_.insert(bins_.begin(), static_cast<std::size_t>(first_ - lo), StageTimes{});
            first_ = lo;
            if (hi >= first_ + static_cast<std::int64_t>(bins_.size())) bins_.resize(static_cast<std::size_t>(hi - first_ + 1));
            return;
        }
        coarsen();
        from_bin = floor_div(from_bin, 2);
        to_bin = floor_div(to_bin, 2);
    }
}

void LaneSummary::coarsen() {
    const std::int64_t first = floor_div(first_, 2);
    const std::int64_t last = floor_div(first_ + static_cast<std::int64_t>(bins_.size()) - 1, 2);
    std::vector<StageTimes> merged(bins_.empty() ? 0 : static_cast<std::size_t>(last - first + 1), StageTimes{});
    for (std::size_t i = 0; i < bins_.size(); ++i) {
        auto& into = merged[static_cast<std::size_t>(floor_div(first_ + static_cast<std::int64_t>(i), 2) - first)];
        for (std::size_t s = 0; s < into.size(); ++s) into[s] += bins_[i][s];
    }
    bins_ = std::move(merged);
    first_ = first;
    bin_ns_ *= 2;
}

}  // namespace pinscope::ui
