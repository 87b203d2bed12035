// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/ui/UiTestSupport.h"

#include <QApplication>
#include <QWheelEvent>

#include "ui/controls/ControlPanel.h"
#include "ui/style/AppStyle.h"

namespace pinscope::test {

void prepare_application() {
    ui::quiet_platform_noise();
    ui::install_app_style(*qApp);
    ui::install_app_font();
}

LoaderConfig live_config(bool pin_memory, std::uint32_t workers) {
    LoaderConfig config;
    config.device = "emulated";
    config.pin_memory = pin_memory;
    config.num_workers = workers;
    config.batches.reset();
    config.seconds = ui::ControlPanel::kUntilStoppedSeconds;
    return config;
}

ui::WindowOptions quiet_window() {
    ui::WindowOptions options;
    options.persistent_settings = false;
    options.dialogs = false;
    return options;
}

std::vector<Span> synthetic_spans(std::size_t count, TimeNs origin, TimeNs period, std::uint16_t workers) {
    std::vector<Span> spans;
    spans.reserve(count + 8);
    const TimeNs stage = period * 9 / 10;
    const std::uint64_t bytes = 38'535'168;
    for (std::uint64_t batch = 0; spans.size() < count; ++batch) {
        const TimeNs t = origin + static_cast<TimeNs>(batch) * period;
        const Lane worker{LaneKind::Worker, static_cast<std::uint16_t>(batch % workers)};
        const TimeNs w = workers;  // each worker takes every workers-th batch: its spans do not overlap
        const TimeNs load = t - 2 * stage * w / 2 - period;
        spans.push_back({load, load + stage * w / 2, batch, bytes, Stage::Load, worker, 1, 0});
        spans.push_back({load + stage * w / 2, load + stage * w, batch, bytes, Stage::Collate, worker, 1, 0});
        spans.push_back({t - period, t - period / 10, batch, bytes, Stage::Pin, {LaneKind::PinThread, 0}, 0, 0});
        spans.push_back({t - period / 10, t, batch, 0, Stage::Wait, {LaneKind::Consumer, 0}, 0, 0});
        spans.push_back({t, t + period / 4, batch, bytes, Stage::H2D, {LaneKind::CopyStream, 0}, -1, -1});
        spans.push_back({t + period / 4, t + period, batch, bytes, Stage::Compute, {LaneKind::ComputeStream, 0}, -1, -1});
    }
    spans.resize(count);
    return spans;
}

QWidget* turn_wheel(QWidget* target, QPoint pos, int angle) {
    QWidget* widget = target;
    QPointF at(pos);
    if (QWidget* child = target->childAt(pos)) {
        widget = child;
        at = child->mapFrom(target, QPointF(pos));
    }
    const QPointF global = widget->mapToGlobal(at);
    for (;;) {
        QWheelEvent event(at, global, QPoint(), QPoint(0, angle), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget, &event);
        if (event.isAccepted()) return widget;
        if (widget->isWindow() || widget->parentWidget() == nullptr) return nullptr;
        at += widget->pos();
        widget = widget->parentWidget();
    }
}

double grey_variance(const QImage& image, const QRect& region) {
    const QRect r = region.intersected(image.rect());
    double sum = 0, sum_sq = 0, n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x) {
            const double g = qGray(image.pixel(x, y));
            sum += g;
            sum_sq += g * g;
            ++n;
        }
    }
    if (n == 0) return 0;
    const double mean = sum / n;
    return sum_sq / n - mean * mean;
}

}  // namespace pinscope::test
