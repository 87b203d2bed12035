// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/UsageBars.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

constexpr int kRowHeight = 18;
constexpr int kNameWidth = 104;
constexpr int kFigureWidth = 112;

QString percent(double share) { return QStringLiteral("%1 %").arg(std::clamp(share, 0.0, 9.99) * 100, 0, 'f', 0); }
QString bound_rate(double per_s) {
    return per_s > 0 ? QStringLiteral("≤ %1/s").arg(per_s, 0, 'f', per_s >= 100 ? 0 : 1) : QString();
}

}  // namespace

UsageBars::UsageBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(QStringLiteral("Each resource's share of the time busy (for the batch credits and the pinned budget: the "
                              "share held), and the batches/s it allows at 100 %: its lanes / its time per batch"));
}

void UsageBars::show_usage(const Bottleneck& bottleneck) {
    std::vector<Row> rows;
    for (const ResourceUse& use : bottleneck.resources) {
        // One row per worker comes before the workers' aggregate, which is the one that bounds.
        const bool one_worker = use.name.starts_with("worker ");
        rows.push_back({use, bottleneck.resource != Resource::None && use.resource == bottleneck.resource && !one_worker});
    }
    const bool grew = rows.size() != rows_.size();
    rows_ = std::move(rows);
    if (grew) updateGeometry();
    update();
}

QString UsageBars::row_text(int row) const {
    const Row& r = rows_.at(static_cast<std::size_t>(row));
    QString text = QStringLiteral("%1 %2").arg(QString::fromStdString(r.use.name), percent(r.use.utilisation));
    if (r.use.bound_batches_per_s > 0) text += QStringLiteral(" · at most %1 batches/s").arg(r.use.bound_batches_per_s, 0, 'f', 0);
    if (r.bound) text += QStringLiteral(" · bound");
    return text;
}

QSize UsageBars::sizeHint() const { return {kNameWidth + 120 + kFigureWidth, std::max<int>(1, row_count()) * kRowHeight + 2}; }

void UsageBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int bar_left = kNameWidth;
    const int bar_width = std::max(40, width() - kNameWidth - kFigureWidth);
    int y = 1;
    for (const Row& r : rows_) {
        const QRect name(0, y, kNameWidth - 6, kRowHeight);
        p.setFont(app_font(9, r.bound));
        p.setPen(QColor(0x1F, 0x23, 0x28));
        p.drawText(name, Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(QString::fromStdString(r.use.name), Qt::ElideRight, name.width()));
        const QRect track(bar_left, y + 4, bar_width, kRowHeight - 8);
        p.fillRect(track, QColor(0xEC, 0xEF, 0xF2));
        const double share = std::clamp(r.use.utilisation, 0.0, 1.0);
        p.fillRect(QRect(track.left(), track.top(), static_cast<int>(std::lround(share * track.width())), track.height()),
                   r.bound ? QColor(0xC6, 0x28, 0x28) : QColor(0x4A, 0x7F, 0xB5));
        QString figures = percent(r.use.utilisation);
        if (r.bound) figures += QStringLiteral(" bound");
        else if (const QString rate = bound_rate(r.use.bound_batches_per_s); !rate.isEmpty()) figures += QStringLiteral("  ") + rate;
        p.setPen(r.bound ? QColor(0xB7, 0x1C, 0x1C) : QColor(0x5A, 0x62, 0x6C));
        p.drawText(QRect(bar_left + bar_width + 6, y, kFigureWidth - 6, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft, figures);
        y += kRowHeight;
    }
}

}  // namespace pinscope::ui
