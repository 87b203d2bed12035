// SPDX-License-Identifier: GPL-3.0-or-later
// How long the window takes to compare two recorded runs: from File > Compare with... (its
// open_comparison) to the comparison's first frame on screen, and to both runs in and drawn whole
// with their figures (runsIn), offscreen at 1920x1080. Prints the figures; it is not a pass/fail
// test. A and B as pinscope --compare takes them: FILE or FILE:RUN.
//   pinscope_comparison_benchmark A B [TIMES]
#include <QApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "engine/record/RecordingReader.h"
#include "engine/record/RunReference.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/compare/ComparisonView.h"
#include "ui/model/SpanStore.h"
#include "ui/timeline/TimelinePlot.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: pinscope_comparison_benchmark A B [TIMES]   (A, B: FILE or FILE:RUN)\n");
        return 2;
    }
    QApplication app(argc, argv);
    pinscope::test::prepare_application();
    pinscope::RunReference a, b;
    try {
        a = pinscope::parse_run_reference(argv[1]);
        b = pinscope::parse_run_reference(argv[2]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    const int times = argc > 3 ? std::atoi(argv[3]) : 3;
    for (int i = 0; i < times; ++i) {
        pinscope::ui::MainWindow window(pinscope::test::quiet_window());
        window.resize(1920, 1080);
        window.show();
        QApplication::processEvents();
        QElapsedTimer timer;
        timer.start();
        if (!window.open_comparison(a, b)) return 1;
        pinscope::ui::ComparisonView& view = *window.comparison();
        window.repaint();  // the first frame, drawn
        const double first_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        while (!view.runs_in()) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        QApplication::processEvents();
        window.repaint();
        const double all_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        std::printf("compare %d: first frame drawn %.0f ms, both runs in and drawn with their figures %.0f ms (%zu + %zu spans)\n",
                    i + 1, first_ms, all_ms, view.timeline(pinscope::RunSide::A).store().size(),
                    view.timeline(pinscope::RunSide::B).store().size());
    }
    return 0;
}
