// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope: the desktop application. Interactive by default; headless with --screenshot.
#include <QApplication>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "app/desktop/CommandLine.h"
#include "app/desktop/DesktopManPage.h"
#include "app/desktop/HeadlessLesson.h"
#include "app/desktop/HeadlessRun.h"
#include "app/desktop/InterruptWatch.h"
#include "ui/lessons/LessonPanel.h"
#include "ui/style/AppIcon.h"
#include "ui/style/AppStyle.h"
#include "ui/window/MainWindow.h"

namespace {

bool has_display() {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

bool platform_chosen() {
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    return platform != nullptr && *platform != '\0';
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string_view(argv[1]) == pinscope::desktop::kHelpManFlag) {  // for the build: the manual page
        std::fputs(pinscope::desktop::desktop_man_page().c_str(), stdout);
        return 0;
    }
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    const auto parsed = pinscope::desktop::parse_command_line(arguments);
    if (!parsed.line) {
        std::fprintf(parsed.exit_code == 0 ? stdout : stderr, "%s\n", parsed.message.toLocal8Bit().constData());
        return parsed.exit_code;
    }
    const auto& line = *parsed.line;
    if (!has_display() && !platform_chosen()) {
        if (!line.headless()) {
            std::fprintf(stderr,
                         "pinscope: there is no display ($DISPLAY and $WAYLAND_DISPLAY are empty). Use "
                         "--screenshot FILE to run headless, or run under xvfb-run.\n");
            return 2;
        }
        setenv("QT_QPA_PLATFORM", "offscreen", 1);  // a screenshot needs no screen
    }

    pinscope::ui::quiet_platform_noise();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("pinscope"));
    QApplication::setApplicationName(QStringLiteral("pinscope"));
    // The icon for every window and the taskbar; the desktop file's name lets a Wayland compositor
    // match the window to its menu entry (resources/desktop).
    QApplication::setWindowIcon(pinscope::ui::app_icon());
    QGuiApplication::setDesktopFileName(QStringLiteral(PINSCOPE_APP_ID));
    pinscope::ui::install_app_style(app);
    if (!pinscope::ui::install_app_font()) std::fprintf(stderr, "pinscope: warning: the embedded font did not load\n");

    if (line.headless()) return line.lesson.isEmpty() ? pinscope::desktop::run_headless(line) : pinscope::desktop::run_headless_lesson(line);

    pinscope::ui::MainWindow window;
    if (line.loaded_config) window.set_config(*line.loaded_config);
    window.show_tab(line.view);
    window.show();
    if (!line.recording.isEmpty()) window.open_recording(line.recording, line.run);
    if (line.compare) window.open_comparison(line.compare->first, line.compare->second);
    if (!line.lesson.isEmpty() && window.open_lesson(line.lesson) && line.step) window.lesson_panel().go_to(*line.step - 1);
    if (line.presenter) window.set_presenter(true);
    // Ctrl-C or SIGTERM: stop the run and close as the window's own close would, then exit 130 / 143.
    const pinscope::desktop::InterruptWatch interrupt([&] {
        window.close();
        QApplication::exit(pinscope::app::InterruptSignals::exit_status());
    });
    return QApplication::exec();
}
