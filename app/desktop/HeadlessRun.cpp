// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/desktop/HeadlessRun.h"

#include <QApplication>
#include <QDir>
#include <QTimer>

#include <cstdio>

#include "app/desktop/InterruptWatch.h"
#include "ui/compare/ComparisonView.h"
#include "ui/controls/ControlPanel.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ImageExport.h"
#include "ui/window/MainWindow.h"

namespace pinscope::desktop {

namespace {

void say(const QString& text) { std::fprintf(stderr, "pinscope: %s\n", text.toLocal8Bit().constData()); }

}  // namespace

int run_headless(const CommandLine& line) {
    ui::WindowOptions options;
    options.persistent_settings = false;  // the same picture whatever this machine's settings say
    options.dialogs = false;
    ui::MainWindow window(options);
    int status = 0;
    QObject::connect(&window, &ui::MainWindow::errorReported, [&](const QString& text) {
        say(text);
        status = 1;
    });
    if (line.loaded_config) window.set_config(*line.loaded_config);
    window.resize(line.size);
    window.show_tab(line.view);
    window.show();
    bool finished = false;
    // After --after seconds, or at once on SIGINT or SIGTERM: the same outputs either way.
    const auto finish = [&] {
        if (finished) return;
        finished = true;
        ui::ExportActions& exports = window.exports();
        try {
            window.feed().poll();  // the very latest spans in the picture
            if (line.recording.isEmpty() && !line.compare && !window.feed().running())
                say(QStringLiteral("the run ended after %1 s, before the screenshot: it shows the ended run (its pinned "
                                   "memory released, the peak given)")
                        .arg(window.feed().has_run() ? window.feed().last_frame()->seconds() : 0.0, 0, 'f', 1));
            QDir().mkpath(QFileInfo(line.screenshot).absolutePath());
            ui::save_widget_image(window, line.screenshot, line.scale);
            say(QStringLiteral("wrote %1 (%2x%3 at scale %4, platform %5)")
                    .arg(QDir::toNativeSeparators(QFileInfo(line.screenshot).absoluteFilePath()))
                    .arg(window.width())
                    .arg(window.height())
                    .arg(line.scale)
                    .arg(QGuiApplication::platformName()));
            window.stop();
            if (!line.csv_dir.isEmpty()) {
                exports.save_csv(line.csv_dir);
                say(QStringLiteral("wrote spans.csv, counters.csv, numa.csv and summary.json to %1")
                        .arg(QDir::toNativeSeparators(QFileInfo(line.csv_dir).absoluteFilePath())));
            }
            if (!line.trace.isEmpty()) {
                exports.save_chrome_trace(line.trace);
                say(QStringLiteral("wrote %1").arg(QDir::toNativeSeparators(QFileInfo(line.trace).absoluteFilePath())));
            }
        } catch (const std::exception& e) {
            say(QString::fromStdString(e.what()));
            status = 1;
        }
        window.stop();
        if (status == 0) status = app::InterruptSignals::exit_status();
        QApplication::exit(status);
    };
    const InterruptWatch interrupt([&] {
        say(QStringLiteral("interrupted; the screenshot and exports show the run so far"));
        finish();
    });
    if (line.compare) {
        // Both runs whole, once both are in.
        if (!window.open_comparison(line.compare->first, line.compare->second)) return 1;
        window.resize(line.size);  // without the configuration beside it, the comparison fits sizes the run's window does not
        if (window.comparison()->runs_in()) QTimer::singleShot(0, &window, finish);
        else QObject::connect(window.comparison(), &ui::ComparisonView::runsIn, &window, [&] { QTimer::singleShot(0, &window, finish); });
    } else if (!line.recording.isEmpty()) {
        // The whole recorded run, once all of it is in.
        QObject::connect(&window.feed(), &ui::RunFeed::ended, &window, [&] { QTimer::singleShot(0, &window, finish); });
        if (!window.open_recording(line.recording, line.run)) return 1;
    } else {
        if (!window.start()) return 1;
        QTimer::singleShot(static_cast<int>(line.after_s * 1000), &window, finish);
    }
    const int loop = QApplication::exec();
    return status != 0 ? status : loop;
}

}  // namespace pinscope::desktop
