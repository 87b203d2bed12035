// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MetricsPanel.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "engine/config/LoaderConfig.h"
#include "ui/plots/ByteFormat.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

namespace {

const QString kBatches = QStringLiteral("batches/s");
const QString kH2D = QStringLiteral("H2D GB/s");
const QString kBusy = QStringLiteral("GPU busy");
const QString kHidden = QStringLiteral("copy hidden");
const QString kStarved = QStringLiteral("GPU starved");
const QString kConsumer = QStringLiteral("consumer wait · host held");
const QString kPinned = QStringLiteral("pinned in use / peak / budget");

QString rate_text(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 1);
}
QString percent_text(double fraction) { return QStringLiteral("%1 %").arg(fraction * 100, 0, 'f', 1); }
QString starved_split(const Metrics& m) {
    return QStringLiteral("copy %1 · host %2").arg(percent_text(m.gpu_starved_copy), percent_text(m.gpu_starved_host));
}
QString consumer_text(const Metrics& m) {
    return QStringLiteral("%1 · %2").arg(percent_text(m.consumer_wait), percent_text(m.host_held));
}

}  // namespace

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    add_tile(kBatches, QStringLiteral("Batches whose kernel finished, per second (large: last second; small: whole run)"));
    add_tile(kH2D, QStringLiteral("Bytes copied host-to-device per second, 1 GB = 10^9 bytes"));
    add_tile(kBusy, QStringLiteral("Share of the time a kernel was running"));
    add_tile(kHidden, QStringLiteral("Share of the host-to-device copy time during which a kernel ran too: copy time "
                                     "that cost nothing"));
    add_tile(kStarved,
             QStringLiteral("Share of the time the GPU had no batch ready: no kernel ran, counted from the run's first "
                            "kernel start to the latest kernel end (start-up before the first kernel is not counted).\n"
                            "copy: a host-to-device copy was in flight meanwhile, the GPU waited on the copy.\n"
                            "host: no copy either, the next batch was not even on its way.\n"
                            "Large: last second, split below; run: whole run."));
    add_tile(kConsumer,
             QStringLiteral("consumer wait: share of the time the consumer thread waited for its next batch from the "
                            "loader (without workers: built it). It queues batches up to %1 ahead of the GPU, so it "
                            "can wait a lot while the GPU is busy; GPU starved says whether the GPU went short.\n"
                            "host held: share of the time the consumer was held inside copies (pageable staging) and "
                            "waits on the device.\nLarge: last second; run: whole run.")
                 .arg(kMaxBatchesOnDevice));
    add_tile(kPinned, QStringLiteral("Page-locked bytes held by batches, the most the pool reserved at once, and the "
                                     "budget the run may not exceed"));
    tile(kConsumer).value->setFont(app_font(13, true));
    for (auto& t : tiles_) layout->addWidget(t.value->parentWidget(), t.title == kPinned ? 2 : 1);
    clear();
}

MetricsPanel::Tile& MetricsPanel::add_tile(const QString& title, const QString& tip) {
    auto* frame = new QFrame;
    frame->setObjectName(QStringLiteral("tile"));
    frame->setStyleSheet(QStringLiteral("QFrame#tile { background: white; border: 1px solid #D8DDE3; border-radius: 6px; }"));
    frame->setToolTip(tip);
    auto* v = new QVBoxLayout(frame);
    v->setContentsMargins(10, 6, 10, 6);
    v->setSpacing(0);
    auto* heading = new QLabel(title);
    heading->setFont(app_font(9));
    heading->setStyleSheet(QStringLiteral("color: #5A626C;"));
    auto* value = new QLabel;
    value->setFont(app_font(title == kPinned ? 13 : 17, true));
    value->setStyleSheet(QStringLiteral("color: #1F2328;"));
    auto* detail = new QLabel;
    detail->setFont(app_font(8));
    detail->setStyleSheet(QStringLiteral("color: #6A737D;"));
    v->addWidget(heading);
    v->addWidget(value);
    v->addWidget(detail);
    tiles_.push_back({title, value, detail});
    return tiles_.back();
}

MetricsPanel::Tile& MetricsPanel::tile(const QString& title) {
    for (auto& t : tiles_)
        if (t.title == title) return t;
    return tiles_.front();
}

QString MetricsPanel::value_of(const QString& title) const {
    for (const auto& t : tiles_)
        if (t.title == title) return t.value->text();
    return {};
}

QString MetricsPanel::detail_of(const QString& title) const {
    for (const auto& t : tiles_)
        if (t.title == title) return t.detail->text();
    return {};
}

QString MetricsPanel::tooltip_of(const QString& title) const {
    for (const auto& t : tiles_)
        if (t.title == title) return t.value->parentWidget()->toolTip();
    return {};
}

void MetricsPanel::take(const RunFrame& frame) {
    if (frame.first) clear();
    if (!frame.first && !frame.ended && frame.time - shown_at_ < kPeriod) return;
    set_window(frame.window);
    set_summary(frame.summary);
    shown_at_ = frame.time;
}

void MetricsPanel::clear() {
    window_ = {};
    summary_ = {};
    for (auto& t : tiles_) {
        t.value->setText(QStringLiteral("–"));
        t.detail->setText(QStringLiteral("run: –"));
    }
}

void MetricsPanel::set_window(const Metrics& w) {
    window_ = w;
    tile(kBatches).value->setText(rate_text(w.batches_per_s));
    tile(kH2D).value->setText(QString::number(w.h2d_gb_per_s, 'f', 2));
    tile(kBusy).value->setText(percent_text(w.gpu_busy));
    tile(kHidden).value->setText(percent_text(w.copy_hidden));
    tile(kStarved).value->setText(percent_text(w.gpu_starved));
    tile(kConsumer).value->setText(consumer_text(w));
    show_starved_detail();
}

// The split of the last second, then the whole run's figure: both setters fill it.
void MetricsPanel::show_starved_detail() {
    tile(kStarved).detail->setText(
        QStringLiteral("%1 · run %2").arg(starved_split(window_), percent_text(summary_.metrics.gpu_starved)));
}

void MetricsPanel::set_summary(const RunSummary& s) {
    summary_ = s;
    const Metrics& m = s.metrics;
    tile(kBatches).detail->setText(QStringLiteral("run: %1 · %2 samples/s").arg(rate_text(m.batches_per_s), rate_text(m.samples_per_s)));
    tile(kH2D).detail->setText(QStringLiteral("run: %1").arg(m.h2d_gb_per_s, 0, 'f', 2));
    tile(kBusy).detail->setText(QStringLiteral("run: %1").arg(percent_text(m.gpu_busy)));
    tile(kHidden).detail->setText(QStringLiteral("run: %1").arg(percent_text(m.copy_hidden)));
    tile(kConsumer).detail->setText(QStringLiteral("run: %1").arg(consumer_text(m)));
    show_starved_detail();
    Tile& pinned = tile(kPinned);
    pinned.value->setText(QStringLiteral("%1 / %2 / %3")
                              .arg(memory_text(static_cast<double>(s.pinned.allocated_bytes.current)),
                                   memory_text(static_cast<double>(s.pinned.reserved_bytes.peak)),
                                   memory_text(static_cast<double>(s.pinned.budget_bytes))));
    const QString memlock = s.memlock_limit_bytes == UINT64_MAX
                                ? QStringLiteral("unlimited")
                                : memory_text(static_cast<double>(s.memlock_limit_bytes));
    pinned.detail->setText(QStringLiteral("reserved %1 · RLIMIT_MEMLOCK %2%3")
                               .arg(memory_text(static_cast<double>(s.pinned.reserved_bytes.current)), memlock,
                                    s.pinned.locked ? QString() : QStringLiteral(" · NOT LOCKED (limit reached)")));
}

}  // namespace pinscope::ui
