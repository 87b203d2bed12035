// SPDX-License-Identifier: GPL-3.0-or-later
// How long the window takes to show a recording: from File > Open (open_recording) to its first
// frame on screen, and to the whole run in (its last frame taken and drawn), offscreen at
// 1920x1080. Prints the figures; it is not a pass/fail test.
//   pinscope_recording_open_benchmark FILE [RUN] [TIMES]
#include <QApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "tests/ui/UiTestSupport.h"
#include "ui/model/SpanStore.h"
#include "ui/timeline/TimelinePlot.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: pinscope_recording_open_benchmark FILE [RUN] [TIMES]\n");
        return 2;
    }
    QApplication app(argc, argv);
    pinscope::test::prepare_application();
    const QString path = QString::fromLocal8Bit(argv[1]);
    const std::optional<std::int64_t> run = argc > 2 ? std::optional<std::int64_t>(std::atoll(argv[2])) : std::nullopt;
    const int times = argc > 3 ? std::atoi(argv[3]) : 3;
    for (int i = 0; i < times; ++i) {
        pinscope::ui::MainWindow window(pinscope::test::quiet_window());
        window.resize(1920, 1080);
        window.show();
        QApplication::processEvents();
        QElapsedTimer timer;
        timer.start();
        if (!window.open_recording(path, run)) return 1;
        window.repaint();  // the first frame, drawn
        const double first_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        while (!window.feed().last_frame() || !window.feed().last_frame()->ended) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        QApplication::processEvents();
        window.repaint();
        const double all_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        std::printf("open %d: first frame drawn %.0f ms, whole run in and drawn %.0f ms (%zu spans held)\n", i + 1, first_ms,
                    all_ms, window.timeline().store().size());
    }
    return 0;
}
