// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ExportActions.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QWidget>

#include <stdexcept>

#include "engine/export/RunExports.h"
#include "ui/export/ImageExport.h"
#include "ui/window/AppSettings.h"

namespace pinscope::ui {

namespace {

QString stamp() { return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")); }

void require_run(const RunHistory& history) {
    if (history.empty()) throw std::runtime_error("nothing to export yet: start a run first");
}

}  // namespace

ExportActions::ExportActions(QWidget& window, AppSettings& settings, std::size_t span_capacity,
                             std::size_t sample_capacity)
    : QObject(&window), window_(window), settings_(settings), history_(span_capacity, sample_capacity) {}

void ExportActions::save_screenshot(QWidget& target, const QString& path) const {
    save_widget_image(target, path, settings_.screenshot_scale());
}

void ExportActions::save_csv(const QString& dir) const {
    require_run(history_);
    export_csv_dir(dir.toStdString(), history_.record());
}

void ExportActions::save_chrome_trace(const QString& path) const {
    require_run(history_);
    export_chrome_trace(path.toStdString(), history_.record());
}

void ExportActions::save_summary(const QString& path) const {
    require_run(history_);
    export_summary_json(path.toStdString(), history_.record().summary);
}

QString ExportActions::ask_save_path(const QString& title, const QString& suggested_name, const QString& filter) {
    const QString path = QFileDialog::getSaveFileName(&window_, title, QDir(settings_.last_folder()).filePath(suggested_name), filter);
    if (!path.isEmpty()) settings_.set_last_folder(QFileInfo(path).absolutePath());
    return path;
}

bool ExportActions::ensure_run() {
    if (!history_.empty()) return true;
    QMessageBox::information(&window_, QStringLiteral("Nothing to export yet"),
                             QStringLiteral("Start a run first (F5): the exports hold what the window shows."));
    return false;
}

void ExportActions::report(const QString& what, const std::function<void()>& work) {
    try {
        work();
        emit saved(what);
    } catch (const std::exception& e) {
        QMessageBox::critical(&window_, QStringLiteral("Export failed"), QString::fromStdString(e.what()));
    }
}

void ExportActions::screenshot_window() { screenshot_plot(&window_, QStringLiteral("window")); }

void ExportActions::screenshot_plot(QWidget* plot, const QString& name) {
    QString path = ask_save_path(QStringLiteral("Save a screenshot of the %1").arg(name),
                                 QStringLiteral("pinscope-%1-%2.png").arg(name, stamp()), image_file_filter());
    if (path.isEmpty()) return;
    if (!image_format_of(path)) path += QStringLiteral(".png");
    report(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), [&] { save_screenshot(*plot, path); });
}

void ExportActions::csv() {
    if (!ensure_run()) return;
    const QString dir = QFileDialog::getExistingDirectory(&window_, QStringLiteral("Folder for spans.csv, counters.csv, numa.csv and summary.json"),
                                                          settings_.last_folder());
    if (dir.isEmpty()) return;
    settings_.set_last_folder(dir);
    report(QStringLiteral("Wrote spans.csv, counters.csv, numa.csv and summary.json to %1").arg(QDir::toNativeSeparators(dir)),
           [&] { save_csv(dir); });
}

void ExportActions::chrome_trace() {
    if (!ensure_run()) return;
    const QString path = ask_save_path(QStringLiteral("Save the Chrome trace (opens in ui.perfetto.dev)"),
                                       QStringLiteral("pinscope-trace-%1.json").arg(stamp()),
                                       QStringLiteral("Chrome trace JSON (*.json)"));
    if (path.isEmpty()) return;
    report(QStringLiteral("Saved %1 (open it in ui.perfetto.dev)").arg(QDir::toNativeSeparators(path)),
           [&] { save_chrome_trace(path); });
}

void ExportActions::summary() {
    if (!ensure_run()) return;
    const QString path = ask_save_path(QStringLiteral("Save the run's summary"),
                                       QStringLiteral("pinscope-summary-%1.json").arg(stamp()),
                                       QStringLiteral("JSON (*.json)"));
    if (path.isEmpty()) return;
    report(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), [&] { save_summary(path); });
}

}  // namespace pinscope::ui
