// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/desktop/HeadlessLesson.h"

#include <QApplication>
#include <QDir>
#include <QTimer>

#include <cstdio>

#include "app/desktop/InterruptWatch.h"
#include "ui/export/ImageExport.h"
#include "ui/lessons/LessonHandout.h"
#include "ui/lessons/LessonPanel.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MainWindow.h"

namespace pinscope::desktop {
namespace {

void say(const QString& text) { std::fprintf(stderr, "pinscope: %s\n", text.toLocal8Bit().constData()); }

// "the emulated device (profile h200-pcie5)", "NVIDIA H200 (cuda:0)": what the handout says it ran on.
std::string device_text(const DeviceInfo& device) {
    if (device.kind == DeviceKind::Emulated) return "the emulated device (profile " + device.profile + ")";
    return device.name;
}

}  // namespace

int run_headless_lesson(const CommandLine& line) {
    ui::WindowOptions options;
    options.persistent_settings = false;
    options.dialogs = false;
    ui::MainWindow window(options);
    int status = 0;
    QObject::connect(&window, &ui::MainWindow::errorReported, [&](const QString& text) {
        say(text);
        status = 1;
    });
    window.resize(line.size);
    if (!window.open_lesson(line.lesson)) return 2;
    if (line.presenter) window.set_presenter(true);
    window.show();
    ui::LessonPanel& panel = window.lesson_panel();
    const LessonSession& session = *panel.session();
    const std::size_t last = line.handout.isEmpty() ? line.step.value_or(1) - 1 : session.lesson().steps.size() - 1;
    std::vector<QImage> shots;

    const auto finish = [&] {
        try {
            if (line.handout.isEmpty()) {
                QDir().mkpath(QFileInfo(line.screenshot).absolutePath());
                ui::save_widget_image(window, line.screenshot, line.scale);
                say(QStringLiteral("wrote %1 (lesson %2, step %3 of %4%5)")
                        .arg(QDir::toNativeSeparators(QFileInfo(line.screenshot).absoluteFilePath()), line.lesson)
                        .arg(session.step() + 1)
                        .arg(session.lesson().steps.size())
                        .arg(line.presenter ? QStringLiteral(", presenter mode") : QString()));
            } else {
                QDir().mkpath(QFileInfo(line.handout).absolutePath());
                const QString device = QString::fromStdString(session.results().empty() ? std::string()
                                                                                         : device_text(session.results().back().summary.device));
                ui::write_handout(line.handout, session, shots, device);
                say(QStringLiteral("wrote %1 (lesson %2, %3 steps)")
                        .arg(QDir::toNativeSeparators(QFileInfo(line.handout).absoluteFilePath()), line.lesson)
                        .arg(session.lesson().steps.size()));
            }
        } catch (const std::exception& e) {
            say(QString::fromStdString(e.what()));
            status = 1;
        }
        window.stop();
        if (status == 0) status = app::InterruptSignals::exit_status();
        QApplication::exit(status);
    };
    // Each step as the Run button runs it; the next once its answer is revealed.
    QObject::connect(&panel, &ui::LessonPanel::stepFinished, &window, [&](std::size_t step) {
        QTimer::singleShot(0, &window, [&, step] {
            window.feed().poll();
            if (!line.handout.isEmpty()) shots.push_back(window.grab().toImage());
            if (step >= last) return finish();
            panel.next();
            panel.run();
        });
    });
    const InterruptWatch interrupt([&] {
        say(QStringLiteral("interrupted"));
        finish();
    });
    panel.go_to(0);
    panel.run();
    const int loop = QApplication::exec();
    return status != 0 ? status : loop;
}

}  // namespace pinscope::desktop
