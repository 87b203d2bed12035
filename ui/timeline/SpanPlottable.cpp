// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/timeline/SpanPlottable.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ui/style/StagePalette.h"

namespace pinscope::ui {

namespace {

const QColor kZebra(0xF4, 0xF6, 0xF9);
const QColor kDeviceSeparator(0x8A, 0x93, 0x9E);
const QColor kOutline(0x14, 0x18, 0x1E);
const QColor kEnded(0x9A, 0xA1, 0xAA);

}  // namespace

SpanPlottable::SpanPlottable(QCPAxis* time_axis, QCPAxis* row_axis, const SpanStore& store)
    : QCPAbstractPlottable(time_axis, row_axis), store_(store) {
    setAntialiased(false);
    setSelectable(QCP::stNone);
}

SpanPlottable::RowGeometry SpanPlottable::row_geometry(int row) const {
    const QCPAxis* rows = valueAxis();
    const double top = rows->coordToPixel(row - 0.5);
    const double bottom = rows->coordToPixel(row + 0.5);
    return {(top + bottom) / 2, std::abs(bottom - top)};
}

int SpanPlottable::row_at(double y_px) const {
    const double coord = valueAxis()->pixelToCoord(y_px);
    const int row = static_cast<int>(std::lround(coord));
    return row >= 0 && row < static_cast<int>(shown_.size()) ? row : -1;
}

int SpanPlottable::row_of(Lane lane) const {
    for (std::size_t i = 0; i < shown_.size(); ++i)
        if (shown_[i].lane == lane) return static_cast<int>(i);
    return -1;
}

TimeNs SpanPlottable::time_at(double x_px) const {
    return origin_ + static_cast<TimeNs>(std::llround(keyAxis()->pixelToCoord(x_px) * 1e9));
}

double SpanPlottable::pixel_of(TimeNs time) const {
    return keyAxis()->coordToPixel(static_cast<double>(time - origin_) * 1e-9);
}

std::optional<Span> SpanPlottable::span_at(const QPointF& pos) const {
    const int row = row_at(pos.y());
    if (row < 0) return std::nullopt;
    const RowGeometry geometry = row_geometry(row);
    if (std::abs(pos.y() - geometry.center) > geometry.height * kBoxHeight / 2 + 1) return std::nullopt;
    const TimeNs tolerance = time_at(pos.x() + kMinBoxPx) - time_at(pos.x());
    return store_.span_at(store_.row_of(shown_[static_cast<std::size_t>(row)].lane), time_at(pos.x()),
                          std::max<TimeNs>(tolerance, 0));
}

std::optional<SpanPlottable::ColumnShare> SpanPlottable::column_at(const QPointF& pos) {
    const int row = row_at(pos.y());
    if (row < 0 || grid_.count <= 0) return std::nullopt;
    const RowGeometry geometry = row_geometry(row);
    if (std::abs(pos.y() - geometry.center) > geometry.height * kBoxHeight / 2 + 1) return std::nullopt;
    const Lane lane = shown_[static_cast<std::size_t>(row)].lane;
    const int store_row = store_.row_of(lane);
    if (store_row < 0) return std::nullopt;
    const double at = static_cast<double>(time_at(pos.x()) - origin_);
    const FoldGrid one{origin_, grid_.column_ns, static_cast<std::int64_t>(std::floor(at / grid_.column_ns)), 1};
    folding_.fold(store_.lanes()[static_cast<std::size_t>(store_row)], one, kMinBoxPx * grid_.column_ns);
    if (folding_.busy(0) <= 0) return std::nullopt;
    ColumnShare share{lane, static_cast<TimeNs>(std::llround(one.column_start(0))),
                      static_cast<TimeNs>(std::llround(one.column_start(1))), folding_.busy(0), {}, folding_.folded_spans()};
    for (int s = 0; s < kStageCount; ++s)
        share.stage_ns[static_cast<std::size_t>(s)] = folding_.stage_ns(0, static_cast<Stage>(s));
    return share;
}

double SpanPlottable::selectTest(const QPointF&, bool, QVariant*) const {
    return -1;  // the timeline handles clicks itself: a click selects a batch, not the plottable
}

QCPRange SpanPlottable::getKeyRange(bool& found, QCP::SignDomain) const {
    found = !store_.empty();
    if (!found) return {};
    return {static_cast<double>(store_.earliest_known() - origin_) * 1e-9,
            static_cast<double>(store_.latest_end() - origin_) * 1e-9};
}

QCPRange SpanPlottable::getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const {
    found = !shown_.empty();
    return {-0.5, static_cast<double>(shown_.size()) - 0.5};
}

void SpanPlottable::draw(QCPPainter* painter) {
    stats_ = {};
    const QRect clip = clipRect();
    const QCPRange range = keyAxis()->range();
    const QRect rect = keyAxis()->axisRect()->rect();
    left_ = rect.left();
    lower_ = range.lower;
    scale_ = rect.width() / range.size();
    // One column per pixel of the lanes' width, on a grid anchored at the run's start.
    grid_ = FoldGrid::for_view(origin_, static_cast<double>(origin_) + range.lower * 1e9,
                               static_cast<double>(origin_) + range.upper * 1e9, rect.width());
    painter->setAntialiasing(false);
    draw_lane_backgrounds(painter, clip);
    for (std::size_t row = 0; row < shown_.size(); ++row) {
        const int store_row = store_.row_of(shown_[row].lane);
        if (store_row < 0) continue;
        const RowGeometry geometry = row_geometry(static_cast<int>(row));
        if (shown_[row].ended) draw_ended(painter, *shown_[row].ended, geometry, clip);
        draw_lane(painter, store_.lanes()[static_cast<std::size_t>(store_row)], geometry);
    }
    if (!highlight_.empty()) draw_highlight(painter, clip);
}

void SpanPlottable::draw_lane_backgrounds(QCPPainter* painter, const QRect& clip) const {
    for (std::size_t row = 0; row < shown_.size(); ++row) {
        const RowGeometry g = row_geometry(static_cast<int>(row));
        const double top = g.center - g.height / 2;
        if (row % 2 == 1) painter->fillRect(QRectF(clip.left(), top, clip.width(), g.height), kZebra);
        // A line between the host's threads and the GPU's streams.
        if (row > 0 && is_device_lane(shown_[row].lane.kind) && !is_device_lane(shown_[row - 1].lane.kind)) {
            painter->setPen(QPen(kDeviceSeparator, 1, Qt::DashLine));
            painter->drawLine(QPointF(clip.left(), top), QPointF(clip.right(), top));
        }
    }
}

void SpanPlottable::draw_lane(QCPPainter* painter, const LaneSpans& lane, const RowGeometry& row) {
    folding_.fold(lane, grid_, kMinBoxPx * grid_.column_ns);
    draw_columns(painter, row);
    const auto px = [&](TimeNs t) { return left_ + (static_cast<double>(t - origin_) * 1e-9 - lower_) * scale_; };
    for (const std::size_t i : folding_.boxes()) {
        const Span& s = lane.spans[i];
        draw_box(painter, s, px(s.start), px(s.end), row);
    }
    stats_.boxes += folding_.boxes().size();
    stats_.folded_spans += folding_.folded_spans();
}

// Folded columns as bars standing on the box's bottom edge: height = busy share, colour = the
// dominant stage. Neighbouring columns that would draw the same bar share one rectangle.
void SpanPlottable::draw_columns(QCPPainter* painter, const RowGeometry& row) {
    const double h = row.height * kBoxHeight;
    const double bottom = row.center + h / 2;
    const auto edge = [&](int column) {
        return std::round(left_ + ((grid_.column_start(column) - static_cast<double>(origin_)) * 1e-9 - lower_) * scale_);
    };
    int run_start = 0, run_height = 0;
    Stage run_stage = Stage::Load;
    const auto flush = [&](int end_column) {
        if (run_height <= 0) return;
        const double x0 = edge(run_start), x1 = std::max(edge(end_column), x0 + 1);
        painter->fillRect(QRectF(x0, bottom - run_height, x1 - x0, run_height), stage_color(run_stage));
        ++stats_.folds;
    };
    for (int c = 0; c < grid_.count; ++c) {
        const double busy = folding_.busy(c);
        const int height = busy > 0 ? std::max(1, static_cast<int>(std::lround(busy * h))) : 0;
        const Stage stage = height > 0 ? folding_.dominant(c) : Stage::Load;
        if (height == run_height && stage == run_stage) continue;
        flush(c);
        run_start = c;
        run_height = height;
        run_stage = stage;
    }
    flush(grid_.count);
}

void SpanPlottable::draw_box(QCPPainter* painter, const Span& span, double x0, double x1, const RowGeometry& row) const {
    const double h = row.height * kBoxHeight;
    const QRectF box(x0, row.center - h / 2, x1 - x0, h);
    const QColor color = stage_color(span.stage);
    painter->fillRect(box, color);
    if (box.width() >= 6) {
        painter->setPen(color.darker(135));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box.adjusted(0, 0, -1, -1));
    }
    // The batch number where it fits: reading a lane then needs no hovering.
    if (labels_ && box.width() >= 34 && h >= 11) {
        const QString text = QString::number(span.batch);
        const QFontMetricsF metrics(painter->font());
        if (metrics.horizontalAdvance(text) + 6 <= box.width()) {
            painter->setPen(color.lightnessF() > 0.62 ? QColor(0x22, 0x22, 0x22) : QColor(Qt::white));
            painter->drawText(box, Qt::AlignCenter, text);
        }
    }
}

// After the change that ended the lane: hatched, so that an empty lane does not read as idle.
void SpanPlottable::draw_ended(QCPPainter* painter, TimeNs ended, const RowGeometry& row, const QRect& clip) const {
    const double x0 = std::max<double>(pixel_of(ended), clip.left());
    if (x0 >= clip.right()) return;
    const double h = row.height * kBoxHeight;
    const QRectF area(x0, row.center - h / 2, clip.right() - x0, h);
    painter->fillRect(area, QBrush(kEnded, Qt::BDiagPattern));
    if (area.width() >= 60 && h >= 11) {
        painter->setPen(kEnded.darker(140));
        painter->drawText(area.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("ended"));
    }
}

void SpanPlottable::draw_highlight(QCPPainter* painter, const QRect& clip) const {
    painter->fillRect(clip, QColor(255, 255, 255, 150));
    painter->setAntialiasing(true);
    QPointF previous_end;
    bool has_previous = false;
    for (const Span& span : highlight_) {
        const int row = row_of(span.lane);
        if (row < 0) continue;
        const RowGeometry g = row_geometry(row);
        const double x0 = pixel_of(span.start);
        const double x1 = std::max(pixel_of(span.end), x0 + 2);
        const double h = g.height * kBoxHeight;
        const QRectF box(x0, g.center - h / 2, x1 - x0, h);
        // The path joins the stages the batch went through; the consumer's wait for it overlaps
        // them and is only outlined.
        const bool on_path = span.stage != Stage::Wait;
        if (has_previous && on_path) {
            painter->setPen(QPen(kOutline, 1.5, Qt::DotLine));
            painter->drawLine(previous_end, QPointF(x0, g.center));
        }
        painter->fillRect(box, stage_color(span.stage));
        painter->setPen(QPen(kOutline, 2));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box);
        if (on_path) {
            previous_end = QPointF(x1, g.center);
            has_previous = true;
        }
    }
    painter->setAntialiasing(false);
}

void SpanPlottable::drawLegendIcon(QCPPainter*, const QRectF&) const {}

}  // namespace pinscope::ui
