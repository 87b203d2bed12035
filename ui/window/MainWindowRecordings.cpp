// SPDX-License-Identifier: GPL-3.0-or-later
// The window's recorded runs: File > Open recording, `pinscope FILE`, and "Run this again here".
// A recording is one more run source (engine/record/RecordingReader): the views take its frames as
// they take a live run's.
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QStatusBar>

#include "engine/record/RecordingReader.h"
#include "engine/record/RunReference.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/AppSettings.h"
#include "ui/window/MainWindow.h"

namespace pinscope::ui {

bool MainWindow::open_recording(const QString& path, std::optional<std::int64_t> run) {
    try {
        const RecordingReader reader(path.toStdString());
        feed_.show(reader.source(pick_run(reader, run.value_or(0))));
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot open the recording"), QString::fromStdString(e.what()));
        return false;
    }
    statusBar()->showMessage(QStringLiteral("Opened %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void MainWindow::choose_recording() {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a recording"), settings_->last_folder(),
                                                      QStringLiteral("pinscope recording (*.pinscope *.db *.sqlite);;All files (*)"));
    if (path.isEmpty()) return;
    settings_->set_last_folder(QFileInfo(path).absolutePath());
    open_recording(path);
}

void MainWindow::show_recorded(const RunFrame& frame) {
    if (frame.first) {
        // What it ran with, as it ran: read-only, so that no edit seems to apply to it.
        controls_->set_config(frame.summary.config);
        controls_->setEnabled(false);
        run_again_->show();
    }
    if (!frame.ended) return;
    set_frozen(true);
    timeline_->show_all();
}

bool MainWindow::run_recorded_again() {
    if (!leave_recorded()) return false;
    return start();
}

bool MainWindow::leave_recorded() {
    const std::shared_ptr<const RunFrame>& frame = feed_.last_frame();
    if (run_again_->isHidden() || !frame || !frame->recorded) return false;
    LoaderConfig config = frame->summary.config;
    // The GPU it ran on may not be here: then this machine's default device (the banner says which).
    if (config.is_cuda() && !runs_on_cuda(config)) config.device = default_device();
    controls_->setEnabled(true);
    run_again_->hide();
    set_config(config);
    return true;
}

}  // namespace pinscope::ui
