// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Draws the SpanStore's spans on lanes: the one plottable of the timeline (an item per span does
// not scale). Spans at least a few pixels wide are boxes; narrower ones are folded per pixel
// column (LaneFolding) and drawn as what they hold: a bar whose height is the share of the
// column's time the lane was busy, coloured by the stage that took most of it. A replot costs a
// step per pixel column and lane, plus one per bin of the lanes' summaries or per span in view
// (whichever is finer than two per column), however long the run. The key
// axis is seconds since the run's start; the value axis is the row of a shown lane.
#include <array>
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "ui/model/LaneFolding.h"
#include "ui/model/LaneVisibility.h"
#include "ui/model/SpanStore.h"

namespace pinscope::ui {

class SpanPlottable : public QCPAbstractPlottable {
    Q_OBJECT

public:
    static constexpr double kMinBoxPx = 3.0;    // narrower spans are folded
    static constexpr double kBoxHeight = 0.72;  // of a row

    struct DrawStats {
        std::size_t boxes = 0;         // spans drawn as their own box
        std::size_t folds = 0;         // runs of folded columns drawn (one rectangle each)
        std::size_t folded_spans = 0;  // spans inside them
    };

    // What one folded pixel column of a lane holds (for its tooltip).
    struct ColumnShare {
        Lane lane;
        TimeNs from = 0, to = 0;
        double busy = 0;  // share of [from, to)
        std::array<TimeNs, kStageCount> stage_ns{};
        std::size_t spans = 0;  // kept spans folded into it
    };

    SpanPlottable(QCPAxis* time_axis, QCPAxis* row_axis, const SpanStore& store);

    void set_origin(TimeNs origin) { origin_ = origin; }
    TimeNs origin() const { return origin_; }
    // The lanes drawn, row by row (TimelinePlot decides which: LaneVisibility).
    void set_lanes(std::vector<ShownLane> lanes) { shown_ = std::move(lanes); }
    const std::vector<ShownLane>& shown_lanes() const { return shown_; }
    // The spans of one batch, drawn outlined and joined on top of a veil; empty clears.
    void set_highlight(std::vector<Span> spans) { highlight_ = std::move(spans); }
    const std::vector<Span>& highlight() const { return highlight_; }
    // Batch numbers inside the boxes wide enough for them (costly text: off while scrolling).
    void set_labels(bool on) { labels_ = on; }
    bool labels() const { return labels_; }

    // The row under a pixel position, or -1.
    int row_at(double y_px) const;
    // The span under a pixel position (within a few pixels), if any.
    std::optional<Span> span_at(const QPointF& pos) const;
    // The folded column under a pixel position, where it holds any busy time (folds it afresh
    // on the last draw's grid).
    std::optional<ColumnShare> column_at(const QPointF& pos);
    TimeNs time_at(double x_px) const;
    double pixel_of(TimeNs time) const;

    const DrawStats& last_draw() const { return stats_; }

    double selectTest(const QPointF& pos, bool only_selectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& found, QCP::SignDomain domain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& found, QCP::SignDomain domain = QCP::sdBoth,
                           const QCPRange& key_range = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    struct RowGeometry {
        double center;
        double height;  // of the row, in pixels
    };
    RowGeometry row_geometry(int row) const;
    int row_of(Lane lane) const;
    void draw_lane_backgrounds(QCPPainter* painter, const QRect& clip) const;
    void draw_lane(QCPPainter* painter, const LaneSpans& lane, const RowGeometry& row);
    void draw_columns(QCPPainter* painter, const RowGeometry& row);
    void draw_box(QCPPainter* painter, const Span& span, double x0, double x1, const RowGeometry& row) const;
    void draw_ended(QCPPainter* painter, TimeNs ended, const RowGeometry& row, const QRect& clip) const;
    void draw_highlight(QCPPainter* painter, const QRect& clip) const;

    const SpanStore& store_;
    TimeNs origin_ = 0;
    std::vector<ShownLane> shown_;
    std::vector<Span> highlight_;
    bool labels_ = true;
    DrawStats stats_;
    LaneFolding folding_;  // reused from lane to lane
    FoldGrid grid_;
    // Pixel transform of the current draw: x = left_ + (seconds - lower_) * scale_.
    double left_ = 0, lower_ = 0, scale_ = 1;
};

}  // namespace pinscope::ui
