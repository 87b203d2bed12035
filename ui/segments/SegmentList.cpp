// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/segments/SegmentList.h"

#include <QHeaderView>

namespace pinscope::ui {
namespace {

enum Column { kIndex, kTime, kChange, kRate, kColumns };

QString percent(double share) { return QStringLiteral("%1 %").arg(100 * share, 0, 'f', 1); }

QString tooltip_of(const RunSegment& segment) {
    const Metrics& m = segment.metrics;
    return QStringLiteral("<b>Segment %1</b>: %2<br>%3 batches in %4 s: %5 batches/s, H2D %6 GB/s<br>"
                          "GPU busy %7, starved %8, copy hidden %9<br>pinned peak %10 MiB<br>%11")
        .arg(segment.index)
        .arg(QString::fromStdString(segment.change.empty() ? "as the run began" : segment.change).toHtmlEscaped())
        .arg(m.batches)
        .arg(m.wall_s, 0, 'f', 2)
        .arg(m.batches_per_s, 0, 'f', 1)
        .arg(m.h2d_gb_per_s, 0, 'f', 2)
        .arg(percent(m.gpu_busy), percent(m.gpu_starved), percent(m.copy_hidden))
        .arg(static_cast<double>(segment.pinned_peak_bytes) / (1024.0 * 1024.0), 0, 'f', 1)
        .arg(QString::fromStdString(segment.bottleneck.evidence).toHtmlEscaped());
}

}  // namespace

SegmentList::SegmentList(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(kColumns);
    setHeaderLabels({QStringLiteral("#"), QStringLiteral("time (s)"), QStringLiteral("what changed"), QStringLiteral("batches/s")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(kIndex, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(kTime, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(kChange, QHeaderView::Stretch);
    header()->setSectionResizeMode(kRate, QHeaderView::ResizeToContents);
    setToolTip(QStringLiteral("Each configuration change starts a segment with its own figures; choose one to see its "
                              "stretch of the timeline"));
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { choose(indexOfTopLevelItem(item)); });
}

void SegmentList::take(const RunFrame& frame) {
    if (frame.first) {
        clear();
        ranges_.clear();
        origin_ = frame.origin;
    }
    show_segments(frame.summary.segments, frame.origin);
}

void SegmentList::show_segments(const std::vector<RunSegment>& segments, TimeNs origin) {
    ranges_.resize(segments.size());
    while (topLevelItemCount() > static_cast<int>(segments.size())) delete takeTopLevelItem(topLevelItemCount() - 1);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const RunSegment& s = segments[i];
        QTreeWidgetItem* item = topLevelItem(static_cast<int>(i));
        if (item == nullptr) {
            item = new QTreeWidgetItem(this);
            item->setTextAlignment(kRate, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(kIndex, Qt::AlignRight | Qt::AlignVCenter);
        }
        ranges_[i] = {s.begin_s(origin), s.end_s(origin)};
        item->setText(kIndex, QString::number(s.index));
        item->setText(kTime, QStringLiteral("%1–%2").arg(ranges_[i].first, 0, 'f', 1).arg(ranges_[i].second, 0, 'f', 1));
        item->setText(kChange, s.change.empty() ? QStringLiteral("as the run began") : QString::fromStdString(s.change));
        item->setText(kRate, QString::number(s.metrics.batches_per_s, 'f', 1));
        const QString tip = tooltip_of(s);
        for (int c = 0; c < kColumns; ++c) item->setToolTip(c, tip);
    }
}

void SegmentList::choose(int index) {
    if (index < 0 || index >= static_cast<int>(ranges_.size())) return;
    setCurrentItem(topLevelItem(index));
    emit segmentChosen(ranges_[static_cast<std::size_t>(index)].first, ranges_[static_cast<std::size_t>(index)].second);
}

}  // namespace pinscope::ui
