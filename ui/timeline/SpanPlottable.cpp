#include "timeline/SpanPlottable.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "style/StagePalette.h"

namespace pinscope::ui {

namespace {

const QColor kZebra(0xF4, 0xF6, 0xF9);
const QColor kDeviceSeparator(0x8A, 0x93, 0x9E);
const QColor kOutline(0x14, 0x18, 0x1E);

// The colour of a fold: its stages' colours mixed by how many spans of each it holds.
QColor mix(const std::array<std::size_t, kStageCount>& counts) {
    double r = 0, g = 0, b = 0, total = 0;
    for (int s = 0; s < kStageCount; ++s) {
        const auto n = static_cast<double>(counts[static_cast<std::size_t>(s)]);
        if (n == 0) continue;
        const QColor c = stage_color(static_cast<Stage>(s));
        r += c.redF() * n;
        g += c.greenF() * n;
        b += c.blueF() * n;
        total += n;
    }
    if (total == 0) return Qt::gray;
    return QColor::fromRgbF(static_cast<float>(r / total), static_cast<float>(g / total), static_cast<float>(b / total));
}

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
    return row >= 0 && row < static_cast<int>(store_.lanes().size()) ? row : -1;
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
    return store_.span_at(row, time_at(pos.x()), std::max<TimeNs>(tolerance, 0));
}

double SpanPlottable::selectTest(const QPointF&, bool, QVariant*) const {
    return -1;  // the timeline handles clicks itself: a click selects a batch, not the plottable
}

QCPRange SpanPlottable::getKeyRange(bool& found, QCP::SignDomain) const {
    found = !store_.empty();
    if (!found) return {};
    return {static_cast<double>(store_.earliest_start() - origin_) * 1e-9,
            static_cast<double>(store_.latest_end() - origin_) * 1e-9};
}

QCPRange SpanPlottable::getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const {
    found = !store_.lanes().empty();
    return {-0.5, static_cast<double>(store_.lanes().size()) - 0.5};
}

void SpanPlottable::draw(QCPPainter* painter) {
    stats_ = {};
    const QRect clip = clipRect();
    const QCPRange range = keyAxis()->range();
    left_ = keyAxis()->axisRect()->left();
    lower_ = range.lower;
    scale_ = keyAxis()->axisRect()->width() / range.size();
    painter->setAntialiasing(false);
    draw_lane_backgrounds(painter, clip);
    const auto& lanes = store_.lanes();
    for (std::size_t row = 0; row < lanes.size(); ++row)
        draw_lane(painter, lanes[row], row_geometry(static_cast<int>(row)), clip);
    if (!highlight_.empty()) draw_highlight(painter, clip);
}

void SpanPlottable::draw_lane_backgrounds(QCPPainter* painter, const QRect& clip) const {
    const auto& lanes = store_.lanes();
    for (std::size_t row = 0; row < lanes.size(); ++row) {
        const RowGeometry g = row_geometry(static_cast<int>(row));
        const double top = g.center - g.height / 2;
        if (row % 2 == 1) painter->fillRect(QRectF(clip.left(), top, clip.width(), g.height), kZebra);
        // A line between the host's threads and the GPU's streams.
        if (row > 0 && is_device_lane(lanes[row].lane.kind) && !is_device_lane(lanes[row - 1].lane.kind)) {
            painter->setPen(QPen(kDeviceSeparator, 1, Qt::DashLine));
            painter->drawLine(QPointF(clip.left(), top), QPointF(clip.right(), top));
        }
    }
}

void SpanPlottable::draw_lane(QCPPainter* painter, const LaneSpans& lane, const RowGeometry& row, const QRect& clip) {
    const auto& spans = lane.spans;
    const auto px = [&](TimeNs t) { return left_ + (static_cast<double>(t - origin_) * 1e-9 - lower_) * scale_; };
    const auto time_of = [&](double x) {
        return origin_ + static_cast<TimeNs>(std::floor(((x - left_) / scale_ + lower_) * 1e9));
    };
    std::size_t i = SpanStore::first_ending_after(lane, time_of(clip.left() - 1));
    const std::size_t end = SpanStore::first_starting_at(lane, time_of(clip.right() + 1), i);  // past the right edge
    while (i < end) {
        const Span& s = spans[i];
        const double x0 = px(s.start), x1 = px(s.end);
        if (x1 - x0 >= kMinBoxPx) {
            draw_box(painter, s, x0, x1, row);
            ++stats_.boxes;
            ++i;
            continue;
        }
        // A fold: take every following span that starts within kFoldGapPx of the block's end, a
        // binary search per step, so that dense lanes cost one step per pixel, not one per span.
        std::array<std::size_t, kStageCount> counts{};
        counts[static_cast<std::size_t>(s.stage)] = 1;
        double block_end = x1;
        std::size_t j = i + 1;
        while (j < end) {
            std::size_t k = std::min(end, SpanStore::first_starting_at(lane, time_of(block_end + kFoldGapPx), j));
            if (k > j && px(spans[k - 1].end) - px(spans[k - 1].start) >= kMinBoxPx) --k;  // a wide one draws itself
            if (k <= j) break;
            // Sample the stages at both ends of the step: enough to colour the block.
            counts[static_cast<std::size_t>(spans[j].stage)] += (k - j + 1) / 2;
            counts[static_cast<std::size_t>(spans[k - 1].stage)] += (k - j) / 2;
            block_end = std::max(block_end, px(spans[k - 1].end));
            j = k;
        }
        const std::size_t count = j - i;
        if (count == 1) {
            draw_box(painter, s, x0, std::max(x1, x0 + 1), row);
            ++stats_.boxes;
        } else {
            draw_fold(painter, x0, std::max(block_end, x0 + 1), count, mix(counts), row);
            ++stats_.folds;
            stats_.folded_spans += count;
        }
        i = j;
    }
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

void SpanPlottable::draw_fold(QCPPainter* painter, double x0, double x1, std::size_t count, const QColor& color,
                              const RowGeometry& row) const {
    const double h = row.height * kBoxHeight;
    const QRectF box(x0, row.center - h / 2, x1 - x0, h);
    painter->fillRect(box, color.lighter(112));
    if (box.width() >= 4) painter->fillRect(box, QBrush(color.darker(150), Qt::BDiagPattern));
    if (box.width() >= 70 && h >= 11) {
        const QString text = QStringLiteral("%1 spans").arg(count);
        const QFontMetricsF metrics(painter->font());
        if (metrics.horizontalAdvance(text) + 8 <= box.width()) {
            const QRectF label = metrics.boundingRect(text).adjusted(-3, 0, 3, 0);
            QRectF back(0, 0, label.width(), label.height());
            back.moveCenter(box.center());
            painter->fillRect(back, QColor(255, 255, 255, 220));
            painter->setPen(QColor(0x22, 0x22, 0x22));
            painter->drawText(back, Qt::AlignCenter, text);
        }
    }
}

void SpanPlottable::draw_highlight(QCPPainter* painter, const QRect& clip) const {
    painter->fillRect(clip, QColor(255, 255, 255, 150));
    painter->setAntialiasing(true);
    QPointF previous_end;
    bool has_previous = false;
    for (const Span& span : highlight_) {
        const int row = store_.row_of(span.lane);
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
