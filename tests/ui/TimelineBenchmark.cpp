// SPDX-License-Identifier: GPL-3.0-or-later
// How long the timeline takes to replot 1 million spans at 1920x1080, offscreen: the figure the
// desktop app promises (at most 16 ms). Prints it; it is not a pass/fail test.
//   pinscope_timeline_benchmark [SPANS] [REPLOTS]
#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tests/ui/UiTestSupport.h"
#include "ui/model/SpanStore.h"
#include "ui/timeline/SpanPlottable.h"
#include "ui/timeline/TimelinePlot.h"

namespace {

struct Figures {
    double median_ms, p95_ms, max_ms;
};

Figures time_replots(pinscope::ui::TimelinePlot& plot, int replots) {
    std::vector<double> ms;
    plot.replot(QCustomPlot::rpImmediateRefresh);  // warm-up: label caches, buffers
    for (int i = 0; i < replots; ++i) {
        QElapsedTimer timer;
        timer.start();
        plot.replot(QCustomPlot::rpImmediateRefresh);
        ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

}  // namespace

int main(int argc, char** argv) {
    if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    pinscope::test::prepare_application();
    const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    const int replots = argc > 2 ? std::atoi(argv[2]) : 50;

    const pinscope::TimeNs origin = 1'000'000'000;
    pinscope::ui::TimelinePlot plot(count + 1);
    plot.reset(origin);
    plot.add_spans(pinscope::test::synthetic_spans(count, origin));
    const pinscope::ui::SpanStore& store = plot.store();
    plot.resize(1920, 1080);
    plot.show();
    plot.set_frozen(true);
    plot.refresh(0);
    const double run_s = static_cast<double>(store.latest_end() - origin) * 1e-9;
    std::printf("timeline benchmark: %zu spans on %zu lanes over %.1f s, plot %dx%d, platform %s, %d replots each\n",
                store.size(), store.lanes().size(), run_s, plot.width(), plot.height(),
                qPrintable(QGuiApplication::platformName()), replots);

    struct View {
        const char* name;
        double from, to;
    };
    const View views[] = {
        {"whole run (every span in view, folded)", 0, run_s},
        {"60 s", run_s / 2, run_s / 2 + 60},
        {"10 s", run_s / 2, run_s / 2 + 10},
        {"live window 0.3 s", run_s - 0.3, run_s},
    };
    for (const View& view : views) {
        plot.xAxis->setRange(view.from, view.to);
        const Figures f = time_replots(plot, replots);
        const auto& stats = plot.spans()->last_draw();
        std::printf("  %-40s median %6.2f ms  p95 %6.2f ms  max %6.2f ms   (%zu boxes, %zu folds holding %zu spans)\n",
                    view.name, f.median_ms, f.p95_ms, f.max_ms, stats.boxes, stats.folds, stats.folded_spans);
    }
    return 0;
}
