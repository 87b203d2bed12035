// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline: one lane per worker, the pin thread, the consumer, the H2D stream and the compute
// stream; spans coloured by stage; reconfigurations and warnings as marked vertical lines. Live,
// it follows "now" (the wheel sets how many seconds it shows); frozen, it pans and zooms. Hovering
// a span tells what it was; clicking one highlights its batch's whole path across the lanes.
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "engine/runner/RunFrame.h"
#include "engine/trace/Trace.h"
#include "ui/adapter/FrameView.h"
#include "ui/model/SpanStore.h"
#include "ui/plots/LiveTimeAxis.h"
#include "ui/timeline/SpanPlottable.h"

namespace pinscope::ui {

class StageLegendElement;

class TimelinePlot : public QCustomPlot, public FrameView {
    Q_OBJECT

public:
    explicit TimelinePlot(std::size_t span_capacity = SpanStore::kDefaultCapacity, QWidget* parent = nullptr);

    // A frame of the run shown: its spans and markers (its first: start afresh).
    void take(const RunFrame& frame) override;
    // A new run: forget spans, markers and the selection.
    void reset(TimeNs origin);
    void add_spans(const std::vector<Span>& spans) { store_.add(spans); }
    void add_markers(const std::vector<Marker>& markers);
    // The spans this timeline keeps (at most span_capacity; the oldest go first).
    const SpanStore& store() const { return store_; }
    // Brings lanes and (unless frozen) the time range up to date and asks for a replot. `moving`:
    // the run goes on, so the view scrolls (and batch numbers, unreadable then, are left out).
    void refresh(double now_s, bool moving = false);
    void set_frozen(bool frozen);
    bool frozen() const { return time_.frozen(); }
    void set_live_window(double seconds);
    double live_window() const { return time_.window(); }
    // What the empty timeline says (by default, to press Start).
    void set_empty_hint(const QString& text);
    // Shows everything the store holds (frozen views).
    void show_all();
    // A lesson's lanes: marked with a triangle before their names, and with `only`, the only lanes
    // drawn (presenter mode). Empty: every lane, none marked.
    void set_lesson_lanes(std::vector<LaneKind> kinds, bool only);
    // Shows seconds [from_s, to_s] of the run (frozen views): a segment's stretch.
    void show_range(double from_s, double to_s);
    void select_batch(std::optional<std::uint64_t> batch, TimeNs around = 0);
    std::optional<std::uint64_t> selected_batch() const { return selected_batch_; }
    int marker_count() const { return static_cast<int>(markers_.size()); }
    QStringList marker_texts() const;  // in full, however short their labels are drawn
    // Where the marker labels are drawn now (widget coordinates), the ones left out not included.
    QList<QRectF> marker_label_rects() const;
    // The band above the lanes that holds the marker labels, in pixels.
    static double marker_band_height();
    // The span under a point of this widget, if any.
    std::optional<Span> span_at(const QPoint& pos) const;
    QString describe(const Span& span) const;
    // What a folded column holds: busy share, stages by share, how many spans.
    QString describe(const SpanPlottable::ColumnShare& column) const;
    SpanPlottable* spans() const { return spans_; }
    // The rectangle where the lanes are drawn, in widget coordinates.
    QRect lanes_rect() const;

signals:
    void batchSelected(std::optional<std::uint64_t> batch);
    void liveWindowChanged(double seconds);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    // The lanes to draw for the current range (LaneVisibility), and their labels.
    void update_lanes();
    void place_marker_labels();

    struct MarkerItems {
        QCPItemStraightLine* line;
        QCPItemText* label;
        QString text;
    };

    SpanStore store_;
    SpanPlottable* spans_;
    StageLegendElement* legend_;
    QCPItemText* empty_hint_;
    QSharedPointer<QCPAxisTickerText> lane_ticker_;
    std::vector<MarkerItems> markers_;
    std::vector<TimeNs> reconfigurations_;  // sorted
    bool lanes_changed_ = false;
    std::vector<LaneKind> lesson_lanes_;
    bool lesson_lanes_only_ = false;
    LiveTimeAxis time_{*this, 0.3};
    std::optional<std::uint64_t> selected_batch_;
    QPoint press_pos_;
};

}  // namespace pinscope::ui
