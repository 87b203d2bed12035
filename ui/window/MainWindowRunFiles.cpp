// SPDX-License-Identifier: GPL-3.0-or-later
// The window's run files: the recording switch ("Record runs to file…", the toolbar's Record),
// "Save run as…" and File > Recent runs, which reopens a live run of this session once another
// has started. Live runs always stream into a recording (ui/record/RunKeeper); the switch only
// chooses which.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include "engine/record/RecordingReader.h"
#include "engine/record/RunCopy.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/record/RunKeeper.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/AppSettings.h"
#include "ui/window/MainWindow.h"

namespace pinscope::ui {
namespace {

const QString kRecordingFilter = QStringLiteral("pinscope recording (*.pinscope *.db *.sqlite);;All files (*)");

}  // namespace

void MainWindow::build_run_files(QMenu* file) {
    record_switch_ = file->addAction(style()->standardIcon(QStyle::SP_DriveHDIcon), QStringLiteral("Record runs to file…"));
    record_switch_->setCheckable(true);
    record_switch_->setIconText(QStringLiteral("Record"));
    record_switch_->setToolTip(QStringLiteral("Stream every live run into a recording file you choose, as pinscope-cli run "
                                              "--record does (a recording is appended to); off, runs are kept for this "
                                              "session only"));
    connect(record_switch_, &QAction::triggered, this, [this](bool on) {
        if (on)
            choose_recording_target();
        else
            stop_recording_runs();
    });
    QAction* save_run = file->addAction(QStringLiteral("Save run as…"));
    save_run->setToolTip(QStringLiteral("Save the run shown (live, ended or going, or recorded) as a recording"));
    connect(save_run, &QAction::triggered, this, &MainWindow::choose_save_run);
    recent_runs_ = file->addMenu(QStringLiteral("Recent runs"));
    connect(keeper_.get(), &RunKeeper::keptChanged, this, &MainWindow::update_recent_runs);
    update_recent_runs();
}

void MainWindow::choose_recording_target() {
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Record runs to"),
                                                      QDir(settings_->last_folder()).filePath(QStringLiteral("runs.pinscope")),
                                                      kRecordingFilter, nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty() || !record_runs_to(path)) {
        record_switch_->setChecked(keeper_->recording_path().has_value());
        return;
    }
    settings_->set_last_folder(QFileInfo(path).absolutePath());
}

bool MainWindow::record_runs_to(const QString& path) {
    try {
        keeper_->record_to(path);
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot record to this file"), QString::fromStdString(e.what()));
        record_switch_->setChecked(keeper_->recording_path().has_value());
        return false;
    }
    record_switch_->setChecked(true);
    record_switch_->setText(QStringLiteral("Record runs to %1").arg(QFileInfo(path).fileName()));
    record_switch_->setIconText(QStringLiteral("Recording"));
    statusBar()->showMessage(QStringLiteral("Live runs from the next one on are recorded to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void MainWindow::stop_recording_runs() {
    keeper_->stop_recording();
    record_switch_->setChecked(false);
    record_switch_->setText(QStringLiteral("Record runs to file…"));
    record_switch_->setIconText(QStringLiteral("Record"));
}

void MainWindow::choose_save_run() {
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save run as"),
                                                      QDir(settings_->last_folder()).filePath(QStringLiteral("run.pinscope")),
                                                      kRecordingFilter, nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty()) return;
    settings_->set_last_folder(QFileInfo(path).absolutePath());
    save_run_as(path);
}

bool MainWindow::save_run_as(const QString& path) {
    const std::shared_ptr<const RunFrame>& frame = feed_.last_frame();
    std::optional<std::pair<std::string, std::int64_t>> source;
    if (frame && frame->recorded) source = {{frame->recorded->file, frame->recorded->run}};
    else if (const auto live = keeper_->live_run(); live && feed_.live()) source = {{live->path.toStdString(), live->run}};
    if (!source) {
        report_error(QStringLiteral("Cannot save the run"), QStringLiteral("no run is shown yet: start one or open a recording"));
        return false;
    }
    try {
        const std::int64_t id = copy_recorded_run(source->first, source->second, path.toStdString());
        statusBar()->showMessage(QStringLiteral("Saved the run as run %1 of %2%3")
                                     .arg(id)
                                     .arg(QDir::toNativeSeparators(path))
                                     .arg(feed_.running() ? QStringLiteral(" (as far as it had gone)") : QString()),
                                 8000);
        return true;
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot save the run"), QString::fromStdString(e.what()));
        return false;
    }
}

bool MainWindow::open_kept_run(std::size_t index) {
    const std::vector<KeptRun>& kept = keeper_->kept();
    if (index >= kept.size()) return false;
    return open_recording(kept[index].path, kept[index].run);
}

void MainWindow::update_recent_runs() {
    recent_runs_->clear();
    const std::vector<KeptRun>& kept = keeper_->kept();
    recent_runs_->setEnabled(!kept.empty());
    // Newest first.
    for (std::size_t i = kept.size(); i-- > 0;) {
        const KeptRun& run = kept[i];
        const QString where = run.in_session_file ? QStringLiteral("this session") : QFileInfo(run.path).fileName();
        QAction* a = recent_runs_->addAction(QStringLiteral("Run %1 · %2 (%3)").arg(i + 1).arg(run.label, where));
        a->setToolTip(QDir::toNativeSeparators(run.path));
        connect(a, &QAction::triggered, this, [this, i] { open_kept_run(i); });
    }
}

void MainWindow::show_stretch(double from_s, double to_s) {
    set_frozen(true);
    timeline_->show_range(from_s, to_s);
    for (TimeSeriesPlot* plot : time_plots()) {
        plot->xAxis->setRange(from_s, std::max(to_s, from_s + 0.002));
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace pinscope::ui
