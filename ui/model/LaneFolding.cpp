// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/LaneFolding.h"

#include <algorithm>
#include <cmath>

namespace pinscope::ui {

FoldGrid FoldGrid::for_view(TimeNs anchor, double from, double to, int pixels) {
    FoldGrid grid;
    grid.anchor = anchor;
    if (pixels <= 0 || !(to > from)) return grid;
    grid.column_ns = (to - from) / pixels;
    const double first = std::floor((from - static_cast<double>(anchor)) / grid.column_ns);
    const double last = std::ceil((to - static_cast<double>(anchor)) / grid.column_ns);
    grid.first = static_cast<std::int64_t>(first);
    grid.count = static_cast<int>(last - first);
    return grid;
}

void LaneFolding::fold(const LaneSpans& lane, const FoldGrid& grid, double min_box_ns) {
    grid_ = grid;
    times_.assign(static_cast<std::size_t>(std::max(grid.count, 0)), {});
    boxes_.clear();
    folded_spans_ = 0;
    if (grid.count <= 0) return;
    const double from = grid.column_start(0), to = grid.column_start(grid.count);
    const LaneSummary& summary = lane.summary;
    const auto bin = static_cast<double>(summary.bin_ns());
    const auto bin_of = [&](double t) {
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((t - static_cast<double>(summary.start())) / bin)), 0,
                                        static_cast<std::int64_t>(summary.bins().size()));
    };
    const std::size_t first = SpanStore::first_ending_after(lane, static_cast<TimeNs>(std::floor(from)));
    const std::size_t last = SpanStore::first_starting_at(lane, static_cast<TimeNs>(std::ceil(to)), first);
    if (grid.column_ns >= 2 * bin) {
        add_summary(summary, bin_of(from), bin_of(to) + 1);
        folded_spans_ = last - first;
        return;
    }
    // Zoomed in further: the spans one by one, and the summary's bins before the earliest span
    // kept (less the bin it starts in, which holds kept spans too).
    if (lane.spans.empty()) add_summary(summary, bin_of(from), bin_of(to) + 1);
    else if (static_cast<double>(lane.spans.front().start) > from)
        add_summary(summary, bin_of(from), bin_of(static_cast<double>(lane.spans.front().start)));
    // A step per span in view (at most a view of two bins per column): the keys, not the spans,
    // no division, and the common case of a span inside one column first.
    const double inverse = 1.0 / grid.column_ns;
    const double offset = static_cast<double>(grid.anchor) + static_cast<double>(grid.first) * grid.column_ns;
    const double count = grid.count;
    auto it = lane.keys.begin() + static_cast<std::ptrdiff_t>(first);
    for (std::size_t i = first; i < last; ++i, ++it) {
        const FoldKey& s = *it;
        const auto duration = static_cast<double>(s.end() - s.start);
        if (duration >= min_box_ns) {
            boxes_.push_back(i);
            continue;
        }
        ++folded_spans_;
        const double x0 = (static_cast<double>(s.start) - offset) * inverse;
        const double x1 = x0 + duration * inverse;
        if (x0 >= 0 && x1 < count && std::floor(x0) == std::floor(x1)) {
            times_[static_cast<std::size_t>(x0)][static_cast<std::size_t>(s.stage())] += duration;
            continue;
        }
        add(x0, x1, s.stage());
    }
}

// Adds the span between column positions x0 and x1 to the columns it overlaps (clipped to the view).
void LaneFolding::add(double x0, double x1, Stage stage) {
    const double count = grid_.count;
    if (x1 <= 0 || x0 >= count || !(x1 > x0)) return;
    const double a = std::max(x0, 0.0), b = std::min(x1, count);
    const auto s = static_cast<std::size_t>(stage);
    const auto c0 = static_cast<std::size_t>(a);
    const auto c1 = std::min(static_cast<std::size_t>(b), times_.size() - 1);
    if (c0 == c1) {
        times_[c0][s] += (b - a) * grid_.column_ns;
        return;
    }
    times_[c0][s] += (static_cast<double>(c0 + 1) - a) * grid_.column_ns;
    for (std::size_t c = c0 + 1; c < c1; ++c) times_[c][s] += grid_.column_ns;
    times_[c1][s] += (b - static_cast<double>(c1)) * grid_.column_ns;
}

// A bin's busy time per stage, spread evenly over the bin: all that is known of it.
void LaneFolding::add_summary(const LaneSummary& summary, std::int64_t from_bin, std::int64_t to_bin) {
    const double bin_columns = static_cast<double>(summary.bin_ns()) / grid_.column_ns;
    const double first_x =
        (static_cast<double>(summary.start()) - static_cast<double>(grid_.anchor)) / grid_.column_ns - static_cast<double>(grid_.first);
    const auto& bins = summary.bins();
    to_bin = std::min<std::int64_t>(to_bin, static_cast<std::int64_t>(bins.size()));
    for (auto k = static_cast<std::size_t>(std::max<std::int64_t>(from_bin, 0)); k < static_cast<std::size_t>(std::max<std::int64_t>(to_bin, 0)); ++k) {
        const double x0 = first_x + static_cast<double>(k) * bin_columns, x1 = x0 + bin_columns;
        const double a = std::max(x0, 0.0), b = std::min(x1, static_cast<double>(grid_.count));
        if (!(b > a)) continue;
        const auto c0 = static_cast<std::size_t>(a);
        if (a == x0 && b == x1 && b <= static_cast<double>(c0 + 1)) {  // the common case: inside one column
            for (std::size_t s = 0; s < bins[k].size(); ++s) times_[c0][s] += static_cast<double>(bins[k][s]);
            continue;
        }
        const auto c1 = std::min(static_cast<std::size_t>(b), times_.size() - 1);
        for (auto c = c0; c <= c1; ++c) {
            const double share = (std::min(b, static_cast<double>(c + 1)) - std::max(a, static_cast<double>(c))) / bin_columns;
            if (share <= 0) continue;
            for (std::size_t s = 0; s < bins[k].size(); ++s) times_[c][s] += share * static_cast<double>(bins[k][s]);
        }
    }
}

double LaneFolding::busy(int column) const {
    const auto& t = times_[static_cast<std::size_t>(column)];
    double sum = 0;
    for (const double v : t) sum += v;
    return std::min(sum / grid_.column_ns, 1.0);
}

Stage LaneFolding::dominant(int column) const {
    const auto& t = times_[static_cast<std::size_t>(column)];
    return static_cast<Stage>(std::max_element(t.begin(), t.end()) - t.begin());
}

}  // namespace pinscope::ui
