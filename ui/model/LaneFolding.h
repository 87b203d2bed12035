// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a lane looks like at a given zoom. Spans at least a few pixels wide are drawn as their own
// boxes; the rest are folded into pixel columns, each holding how long each stage kept the lane
// busy in the column's time, from which the column's busy share and its dominant stage follow.
// Where a column holds two bins of the lane's summary or more, the bins are folded instead of
// the spans (each bin spread evenly over its width: a whole-run view costs a step per bin); so is
// the time before the lane's earliest kept span (the spans the store let go).
// Columns lie on a grid anchored at a fixed time, not at the view's edge, so panning moves the
// columns without changing what they hold. Plain C++ (no Qt): SpanPlottable paints the result.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ui/model/SpanStore.h"

namespace pinscope::ui {

// Column k covers [anchor + k * column_ns, anchor + (k + 1) * column_ns); the view shows
// columns first .. first + count - 1.
struct FoldGrid {
    TimeNs anchor = 0;
    double column_ns = 1;
    std::int64_t first = 0;
    int count = 0;

    // The grid of a view of [from, to) that is `pixels` wide: one column per pixel.
    static FoldGrid for_view(TimeNs anchor, double from, double to, int pixels);
    double column_start(int column) const { return static_cast<double>(anchor) + static_cast<double>(first + column) * column_ns; }
};

class LaneFolding {
public:
    // Folds `lane` onto `grid`; spans of at least `min_box_ns` go to boxes() instead.
    void fold(const LaneSpans& lane, const FoldGrid& grid, double min_box_ns);

    const FoldGrid& grid() const { return grid_; }
    // Indices in lane.spans of the visible spans wide enough to draw one by one, in start order.
    const std::vector<std::size_t>& boxes() const { return boxes_; }
    std::size_t folded_spans() const { return folded_spans_; }  // kept spans in view that went into columns
    // Share of the column's time covered by folded spans (0..1; a lane's spans do not overlap, and
    // where they do the share is capped at 1).
    double busy(int column) const;
    // The stage that covered most of the column's time; meaningful where busy() > 0.
    Stage dominant(int column) const;
    TimeNs stage_ns(int column, Stage stage) const {
        return std::llround(times_[static_cast<std::size_t>(column)][static_cast<std::size_t>(stage)]);
    }

private:
    void add(double x0, double x1, Stage stage);
    // Bins [from_bin, to_bin) of the summary (indices into its bins).
    void add_summary(const LaneSummary& summary, std::int64_t from_bin, std::int64_t to_bin);

    FoldGrid grid_;
    std::vector<std::array<double, kStageCount>> times_;  // per column, busy ns per stage
    std::vector<std::size_t> boxes_;
    std::size_t folded_spans_ = 0;
};

}  // namespace pinscope::ui
