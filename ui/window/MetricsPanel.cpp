#include "window/MetricsPanel.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "plots/ByteFormat.h"
#include "style/AppStyle.h"

namespace pinscope::ui {

namespace {

const QString kBatches = QStringLiteral("batches/s");
const QString kH2D = QStringLiteral("H2D GB/s");
const QString kBusy = QStringLiteral("GPU busy");
const QString kHidden = QStringLiteral("copy hidden");
const QString kWait = QStringLiteral("data wait");
const QString kPinned = QStringLiteral("pinned in use / peak / budget");

QString rate_text(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 1);
}
QString percent_text(double fraction) { return QStringLiteral("%1 %").arg(fraction * 100, 0, 'f', 1); }

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
    add_tile(kWait, QStringLiteral("Share of the time the consumer waited for its next batch: the GPU starves for data"));
    add_tile(kPinned, QStringLiteral("Page-locked bytes held by batches, the most the pool reserved at once, and the "
                                     "budget the run may not exceed"));
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

void MetricsPanel::clear() {
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
    tile(kWait).value->setText(percent_text(w.data_wait));
}

void MetricsPanel::set_summary(const RunSummary& s) {
    summary_ = s;
    const Metrics& m = s.metrics;
    tile(kBatches).detail->setText(QStringLiteral("run: %1 · %2 samples/s").arg(rate_text(m.batches_per_s), rate_text(m.samples_per_s)));
    tile(kH2D).detail->setText(QStringLiteral("run: %1").arg(m.h2d_gb_per_s, 0, 'f', 2));
    tile(kBusy).detail->setText(QStringLiteral("run: %1").arg(percent_text(m.gpu_busy)));
    tile(kHidden).detail->setText(QStringLiteral("run: %1").arg(percent_text(m.copy_hidden)));
    tile(kWait).detail->setText(QStringLiteral("run: %1").arg(percent_text(m.data_wait)));
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
