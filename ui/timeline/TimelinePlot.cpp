// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/timeline/TimelinePlot.h"

#include <QFontMetricsF>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "engine/export/ExportFormat.h"
#include "ui/plots/ByteFormat.h"
#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"
#include "ui/timeline/SpanPlottable.h"
#include "ui/timeline/StageLegendElement.h"

namespace pinscope::ui {

namespace {

constexpr double kMinWindow = 0.002;
constexpr double kMaxWindow = 120;
constexpr int kClickSlopPx = 4;
constexpr int kMarkerPadX = 4, kMarkerPadY = 2;
constexpr int kMarkerRows = 3;  // rows of marker labels above the lanes
constexpr TimeNs kBatchSearchRadius = 10'000'000'000;  // a batch's stages lie within seconds of each other

QString human_duration(TimeNs ns) {
    const double d = static_cast<double>(ns);
    if (d >= 1e9) return QStringLiteral("%1 s").arg(d / 1e9, 0, 'f', 3);
    if (d >= 1e6) return QStringLiteral("%1 ms").arg(d / 1e6, 0, 'f', 3);
    return QStringLiteral("%1 µs").arg(d / 1e3, 0, 'f', 1);
}

QString marker_label(const std::string& text) {
    QString label = QString::fromStdString(text);
    label.replace(QStringLiteral(" -> "), QStringLiteral(" → "));
    return label;
}

}  // namespace

TimelinePlot::TimelinePlot(std::size_t span_capacity, QWidget* parent)
    : QCustomPlot(parent), store_(span_capacity), lane_ticker_(new QCPAxisTickerText) {
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phCacheLabels, true);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);

    legend_ = new StageLegendElement(this);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend_);
    plotLayout()->setRowSpacing(0);

    spans_ = new SpanPlottable(xAxis, yAxis, store_);

    const QFont tick_font = app_font(9);
    xAxis->setTickLabelFont(tick_font);
    xAxis->setLabelFont(app_font(9));
    xAxis->setLabel(QStringLiteral("time since start (s)"));
    xAxis->grid()->setPen(QPen(QColor(0xDD, 0xE1, 0xE6), 1, Qt::DotLine));
    yAxis->setTicker(lane_ticker_);
    yAxis->setTickLabelFont(app_font(10));
    yAxis->setRangeReversed(true);
    yAxis->setRange(-0.5, 4.5);
    yAxis->grid()->setVisible(false);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 0);
    yAxis->setBasePen(QPen(QColor(0xB0, 0xB6, 0xBE)));
    xAxis->setBasePen(QPen(QColor(0xB0, 0xB6, 0xBE)));

    empty_hint_ = new QCPItemText(this);
    empty_hint_->position->setType(QCPItemPosition::ptAxisRectRatio);
    empty_hint_->position->setCoords(0.5, 0.5);
    empty_hint_->setFont(app_font(12));
    empty_hint_->setColor(QColor(0x6A, 0x73, 0x7D));
    empty_hint_->setText(QStringLiteral("Press Start (F5): batches will appear here as workers, the pin thread,\n"
                                        "the consumer and the GPU's streams handle them."));
    empty_hint_->setTextAlignment(Qt::AlignCenter);
    set_frozen(false);
    connect(this, &QCustomPlot::beforeReplot, this, &TimelinePlot::place_marker_labels);
    // Which lanes are shown depends on where the view starts (lanes that ended before it go).
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { update_lanes(); });
    update_lanes();
}

QRect TimelinePlot::lanes_rect() const { return axisRect()->rect(); }

void TimelinePlot::set_lesson_lanes(std::vector<LaneKind> kinds, bool only) {
    lesson_lanes_ = std::move(kinds);
    lesson_lanes_only_ = only;
    lanes_changed_ = true;  // the labels change even where the lanes do not
    update_lanes();
    replot(rpQueuedReplot);
}

void TimelinePlot::take(const RunFrame& frame) {
    if (frame.first) reset(frame.origin);
    store_.add(frame.spans);
    add_markers(frame.markers);
}

void TimelinePlot::reset(TimeNs origin) {
    store_.clear();
    time_.reset(origin);
    spans_->set_origin(origin);
    for (auto& m : markers_) {
        removeItem(m.line);
        removeItem(m.label);
    }
    markers_.clear();
    axisRect()->setMinimumMargins(QMargins());
    reconfigurations_.clear();
    select_batch(std::nullopt);
    replot(rpQueuedReplot);
}

void TimelinePlot::add_markers(const std::vector<Marker>& markers) {
    for (const Marker& marker : markers) {
        const double t = static_cast<double>(marker.time - spans_->origin()) * 1e-9;
        const QString text = marker_label(marker.text);
        const QColor color = marker_color(marker.kind);
        auto* line = new QCPItemStraightLine(this);
        line->point1->setCoords(t, 0);
        line->point2->setCoords(t, 1);
        line->setPen(QPen(color, 1.5, Qt::DashLine));
        auto* label = new QCPItemText(this);
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->setText(text);
        label->setFont(app_font(9));
        label->setColor(color.darker(130));
        label->setBrush(QColor(255, 255, 255, 230));
        label->setPen(QPen(color));
        label->setPadding(QMargins(kMarkerPadX, kMarkerPadY, kMarkerPadX, kMarkerPadY));
        label->setClipToAxisRect(false);
        markers_.push_back({line, label, text});
        if (marker.kind == MarkerKind::Reconfigured)
            reconfigurations_.insert(std::upper_bound(reconfigurations_.begin(), reconfigurations_.end(), marker.time),
                                     marker.time);
    }
    if (markers.empty()) return;
    axisRect()->setMinimumMargins(QMargins(0, static_cast<int>(std::ceil(marker_band_height())), 0, 0));
    place_marker_labels();
    replot(rpQueuedReplot);
}

void TimelinePlot::place_marker_labels() {
    // The labels go in a band above the lanes, so that they cover no span, count or highlighted
    // batch: each on the first of kMarkerRows rows where it clears the label before it, to the right
    // of its line, or to the left where the plot ends first; where no row has room, it is shortened
    // (elided) to the room there is, or left out when that is too little to read. The lines stay.
    const QFont font = app_font(9);
    const QFontMetricsF metrics(font);
    const double row_height = marker_band_height() / kMarkerRows;
    const QRect lanes = axisRect()->rect();
    const double band_top = lanes.top() - marker_band_height();
    std::array<double, kMarkerRows> row_end{};
    row_end.fill(-1e9);
    for (auto& m : markers_) {
        const double x = xAxis->coordToPixel(m.line->point1->key());
        m.label->setVisible(false);
        if (x < lanes.left() || x > lanes.right()) continue;
        const double full = metrics.horizontalAdvance(m.text) + 2 * kMarkerPadX + 2;
        const bool leftwards = x + full > lanes.right() && x - full >= lanes.left();
        double left = leftwards ? x - full : x;
        double room = leftwards ? full : lanes.right() - x;
        int row = -1;
        for (int r = 0; r < kMarkerRows; ++r)
            if (row_end[r] + 4 <= left) {
                row = r;
                break;
            }
        if (row < 0) {  // every row is taken here: the one that frees first, shortened to fit after it
            row = static_cast<int>(std::min_element(row_end.begin(), row_end.end()) - row_end.begin());
            left = std::max(x, row_end[row] + 4);
            room = std::min(room, lanes.right() - left);
            if (left > x + 2) room = 0;  // its line would stand apart from it
        }
        const double text_room = std::min(room, full) - 2 * kMarkerPadX - 2;
        const QString shown = metrics.elidedText(m.text, Qt::ElideRight, text_room);
        if (text_room < metrics.horizontalAdvance(QStringLiteral("reconf…")) || shown.isEmpty()) continue;
        m.label->setText(shown);
        m.label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m.label->position->setCoords(left, band_top + row * row_height);
        m.label->setVisible(true);
        row_end[row] = left + metrics.horizontalAdvance(shown) + 2 * kMarkerPadX + 2;
    }
}

double TimelinePlot::marker_band_height() {
    return kMarkerRows * (QFontMetricsF(app_font(9)).height() + 2 * kMarkerPadY + 2);
}

QStringList TimelinePlot::marker_texts() const {
    QStringList texts;
    for (const auto& m : markers_) texts << m.text;
    return texts;
}

QList<QRectF> TimelinePlot::marker_label_rects() const {
    QList<QRectF> rects;
    for (const auto& m : markers_)
        if (m.label->visible()) rects << QRectF(m.label->topLeft->pixelPosition(), m.label->bottomRight->pixelPosition());
    return rects;
}

void TimelinePlot::update_lanes() {
    const TimeNs view_from = spans_->origin() + static_cast<TimeNs>(std::llround(xAxis->range().lower * 1e9));
    auto lanes = lanes_to_show(store_, reconfigurations_, view_from);
    const auto in_lesson = [this](const ShownLane& shown) {
        return std::find(lesson_lanes_.begin(), lesson_lanes_.end(), shown.lane.kind) != lesson_lanes_.end();
    };
    if (lesson_lanes_only_ && !lesson_lanes_.empty())
        lanes.erase(std::remove_if(lanes.begin(), lanes.end(), [&](const ShownLane& l) { return !in_lesson(l); }), lanes.end());
    if (lanes == spans_->shown_lanes() && !lanes_changed_) return;
    QVector<double> ticks;
    QVector<QString> labels;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        ticks << static_cast<double>(i);
        labels << (in_lesson(lanes[i]) ? QStringLiteral("\u25B6 ") : QString()) + lane_label(lanes[i].lane) + QStringLiteral("  ");
    }
    lane_ticker_->setTicks(ticks, labels);
    yAxis->setRange(-0.5, std::max<double>(static_cast<double>(lanes.size()), 1) - 0.5);
    spans_->set_lanes(std::move(lanes));
    lanes_changed_ = true;
}

void TimelinePlot::refresh(double now_s, bool moving) {
    const bool labels = time_.frozen() || !moving;
    const bool labels_changed = labels != spans_->labels();
    spans_->set_labels(labels);
    time_.follow(now_s);
    update_lanes();
    empty_hint_->setVisible(store_.empty());
    // Frozen, the picture only changes when the lanes do; pans and zooms replot by themselves.
    const bool lanes_changed = std::exchange(lanes_changed_, false);
    if (time_.frozen() && !lanes_changed && !labels_changed) return;
    replot(rpQueuedReplot);
}

void TimelinePlot::set_frozen(bool frozen) {
    time_.set_frozen(frozen);
    setCursor(frozen ? Qt::OpenHandCursor : Qt::ArrowCursor);
}

void TimelinePlot::set_live_window(double seconds) {
    time_.set_window(std::clamp(seconds, kMinWindow, kMaxWindow));
    emit liveWindowChanged(time_.window());
}

void TimelinePlot::set_empty_hint(const QString& text) { empty_hint_->setText(text); }

void TimelinePlot::show_all() {
    bool found = false;
    const QCPRange range = spans_->getKeyRange(found);
    if (found) xAxis->setRange(range.lower, std::max(range.upper, range.lower + kMinWindow));
    replot(rpQueuedReplot);
}

void TimelinePlot::show_range(double from_s, double to_s) {
    xAxis->setRange(from_s, std::max(to_s, from_s + kMinWindow));
    replot(rpQueuedReplot);
}

void TimelinePlot::select_batch(std::optional<std::uint64_t> batch, TimeNs around) {
    selected_batch_ = batch;
    spans_->set_highlight(batch ? store_.spans_of_batch(*batch, around, kBatchSearchRadius) : std::vector<Span>{});
    emit batchSelected(batch);
    replot(rpQueuedReplot);
}

std::optional<Span> TimelinePlot::span_at(const QPoint& pos) const {
    if (!axisRect()->rect().contains(pos)) return std::nullopt;
    return spans_->span_at(QPointF(pos));
}

QString TimelinePlot::describe(const Span& span) const {
    QString text = QStringLiteral("<b>batch %1</b> · %2<br>%3<br>start %4 s · %5")
                       .arg(span.batch)
                       .arg(stage_label(span.stage).toHtmlEscaped(), lane_label(span.lane).toHtmlEscaped())
                       .arg(static_cast<double>(span.start - spans_->origin()) * 1e-9, 0, 'f', 6)
                       .arg(human_duration(span.duration()));
    if (span.bytes > 0) {
        text += QStringLiteral("<br>%1").arg(memory_text(static_cast<double>(span.bytes)));
        if (const auto rate = span_gb_per_s(span)) text += QStringLiteral(" · %1 GB/s").arg(*rate, 0, 'f', 2);
    }
    if (!is_device_lane(span.lane.kind)) {
        text += QStringLiteral("<br>CPU %1 · NUMA node %2")
                    .arg(span.cpu >= 0 ? QString::number(span.cpu) : QStringLiteral("?"),
                         span.numa_node >= 0 ? QString::number(span.numa_node) : QStringLiteral("?"));
    }
    return text;
}

QString TimelinePlot::describe(const SpanPlottable::ColumnShare& column) const {
    const double length = static_cast<double>(column.to - column.from);
    std::vector<std::pair<TimeNs, Stage>> stages;
    for (int s = 0; s < kStageCount; ++s)
        if (const TimeNs t = column.stage_ns[static_cast<std::size_t>(s)]; t > 0) stages.emplace_back(t, static_cast<Stage>(s));
    std::sort(stages.begin(), stages.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList parts;
    for (const auto& [t, stage] : stages)
        parts << QStringLiteral("%1 %2 %").arg(stage_label(stage).toHtmlEscaped()).arg(100.0 * static_cast<double>(t) / length, 0, 'f', 1);
    return QStringLiteral("<b>%1</b> · %2 s to %3 s<br>busy %4 %: %5<br>%6 spans folded here; zoom in (wheel) to see them one by one")
        .arg(lane_label(column.lane).toHtmlEscaped())
        .arg(static_cast<double>(column.from - spans_->origin()) * 1e-9, 0, 'f', 3)
        .arg(static_cast<double>(column.to - spans_->origin()) * 1e-9, 0, 'f', 3)
        .arg(100.0 * column.busy, 0, 'f', 1)
        .arg(parts.join(QStringLiteral(", ")))
        .arg(column.spans);
}

void TimelinePlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return;
    const QPoint pos = event->pos();
    const QPoint global = event->globalPosition().toPoint();
    const auto span = span_at(pos);
    // A span drawn as its own box tells about itself; over folded bars, the column tells its shares.
    const bool boxed = span && spans_->pixel_of(span->end) - spans_->pixel_of(span->start) >= SpanPlottable::kMinBoxPx;
    const auto column = boxed || !axisRect()->rect().contains(pos) ? std::nullopt : spans_->column_at(QPointF(pos));
    if (boxed || (span && !column)) {
        QToolTip::showText(global, describe(*span), this);
    } else if (column) {
        QToolTip::showText(global, describe(*column), this);
    } else if (const auto stage = legend_->stage_at(QPointF(pos))) {
        QToolTip::showText(global, stage_description(*stage), this);
    } else if (legend_->folded_entry_at(QPointF(pos))) {
        QToolTip::showText(global,
                           QStringLiteral("Spans narrower than %1 pixels are folded per pixel column: the bar's height "
                                          "is the share of the column's time the lane was busy, its colour the stage "
                                          "that took most of it. Zoom in (mouse wheel) to see the spans one by one.")
                               .arg(SpanPlottable::kMinBoxPx),
                           this);
    } else {
        QToolTip::hideText();
    }
}

void TimelinePlot::mousePressEvent(QMouseEvent* event) {
    press_pos_ = event->pos();
    if (time_.frozen() && event->button() == Qt::LeftButton) setCursor(Qt::ClosedHandCursor);
    QCustomPlot::mousePressEvent(event);
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (time_.frozen()) setCursor(Qt::OpenHandCursor);
    if (event->button() != Qt::LeftButton || (event->pos() - press_pos_).manhattanLength() > kClickSlopPx) return;
    if (!axisRect()->rect().contains(event->pos())) return;
    if (const auto span = span_at(event->pos())) select_batch(span->batch, span->start);
    else select_batch(std::nullopt);
}

void TimelinePlot::mouseDoubleClickEvent(QMouseEvent* event) {
    press_pos_ = event->pos();  // a quick second click arrives as a double click: it still selects
    QCustomPlot::mouseDoubleClickEvent(event);
}

void TimelinePlot::wheelEvent(QWheelEvent* event) {
    if (time_.frozen()) {
        QCustomPlot::wheelEvent(event);
        return;
    }
    // Live: the wheel sets how much of the past the view shows; its right edge stays at "now".
    const double steps = event->angleDelta().y() / 120.0;
    set_live_window(time_.window() * std::pow(0.85, steps));
    event->accept();
}

void TimelinePlot::leaveEvent(QEvent* event) {
    QToolTip::hideText();
    QCustomPlot::leaveEvent(event);
}

}  // namespace pinscope::ui
