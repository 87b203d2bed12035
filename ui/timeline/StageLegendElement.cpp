// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/timeline/StageLegendElement.h"

#include <algorithm>

#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"

namespace pinscope::ui {

namespace {
constexpr double kSwatch = 12;
constexpr double kSwatchGap = 5;
constexpr double kEntryGap = 18;
constexpr double kLineHeight = 20;
constexpr double kPadding = 4;
}  // namespace

StageLegendElement::StageLegendElement(QCustomPlot* plot) : QCPLayoutElement(plot) {
    for (int s = 0; s < kStageCount; ++s) {
        const auto stage = static_cast<Stage>(s);
        entries_.push_back({stage, stage_label(stage), {}});
    }
    entries_.push_back({std::nullopt, QStringLiteral("folded: bar height = busy share"), {}});
    setMargins(QMargins(0, 0, 0, 0));
}

std::vector<StageLegendElement::Entry> StageLegendElement::layout(double left, double top, double width) const {
    const QFontMetricsF metrics(app_font(9));
    std::vector<Entry> out = entries_;
    double x = left + kPadding, y = top + kPadding;
    for (auto& entry : out) {
        const double w = kSwatch + kSwatchGap + metrics.horizontalAdvance(entry.text);
        if (x > left + kPadding && x + w > left + width - kPadding) {
            x = left + kPadding;
            y += kLineHeight;
        }
        entry.box = QRectF(x, y, w, kLineHeight);
        x += w + kEntryGap;
    }
    return out;
}

int StageLegendElement::lines_for(double width) const {
    const auto entries = layout(0, 0, width);
    return entries.empty() ? 1 : static_cast<int>(entries.back().box.top() / kLineHeight) + 1;
}

QSize StageLegendElement::minimumOuterSizeHint() const {
    const double width = mParentPlot ? mParentPlot->viewport().width() - 90 : 800;
    return {0, static_cast<int>(lines_for(width) * kLineHeight + 2 * kPadding)};
}

QSize StageLegendElement::maximumOuterSizeHint() const { return {QWIDGETSIZE_MAX, minimumOuterSizeHint().height()}; }

void StageLegendElement::draw(QCPPainter* painter) {
    laid_out_ = layout(mRect.left(), mRect.top(), mRect.width());
    painter->setFont(app_font(9));
    for (const auto& entry : laid_out_) {
        const QRectF swatch(entry.box.left(), entry.box.center().y() - kSwatch / 2, kSwatch, kSwatch);
        if (entry.stage) {
            painter->fillRect(swatch, stage_color(*entry.stage));
        } else {
            // Bars of a folded lane: the stage's colour up to the share of time busy.
            painter->fillRect(swatch, QColor(0xE6, 0xE9, 0xED));
            const double w = swatch.width() / 3;
            const double shares[] = {0.45, 0.8, 1.0};
            for (int i = 0; i < 3; ++i) {
                const double h = swatch.height() * shares[i];
                painter->fillRect(QRectF(swatch.left() + i * w, swatch.bottom() - h, w, h), QColor(0x55, 0x5B, 0x63));
            }
        }
        painter->setPen(QColor(0x1F, 0x23, 0x28));
        painter->drawText(QRectF(swatch.right() + kSwatchGap, entry.box.top(), entry.box.width(), entry.box.height()),
                          Qt::AlignVCenter | Qt::AlignLeft, entry.text);
    }
}

std::optional<Stage> StageLegendElement::stage_at(const QPointF& pos) const {
    for (const auto& entry : laid_out_)
        if (entry.box.contains(pos)) return entry.stage;
    return std::nullopt;
}

bool StageLegendElement::folded_entry_at(const QPointF& pos) const {
    return std::any_of(laid_out_.begin(), laid_out_.end(),
                       [&](const Entry& e) { return !e.stage && e.box.contains(pos); });
}

}  // namespace pinscope::ui
