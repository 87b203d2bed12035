// SPDX-License-Identifier: GPL-3.0-or-later
// The window's comparison of two recorded runs: File > Compare with..., pinscope --compare A B. It
// takes the place of the window's tabs (and the configuration, which belongs to the run shown)
// until it is closed; the run shown before stays as it was.
#include <QDockWidget>
#include <QFileInfo>
#include <QStackedWidget>
#include <QStatusBar>

#include <array>

#include "engine/record/RecordingReader.h"
#include "engine/record/RunReference.h"
#include "ui/compare/CompareDialog.h"
#include "ui/compare/ComparisonView.h"
#include "ui/window/AppSettings.h"
#include "ui/window/MainWindow.h"

namespace pinscope::ui {

bool MainWindow::open_comparison(const RunReference& a, const RunReference& b) {
    std::array<std::shared_ptr<RunSource>, 2> sources;
    try {
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const RunReference& ref = i == 0 ? a : b;
            const RecordingReader reader(ref.path);
            sources[i] = reader.source(pick_run(reader, ref.run));
        }
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot compare"), QString::fromStdString(e.what()));
        return false;
    }
    close_comparison();
    comparison_ = new ComparisonView(options_.feed);
    connect(comparison_, &ComparisonView::closeRequested, this, &MainWindow::close_comparison);
    // The configuration (and a lesson) belong to the run shown, and go first, so that the window
    // need not grow to hold both them and the comparison.
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        if (dock->isVisible()) {
            docks_under_comparison_.push_back(dock);
            dock->hide();
        }
    pages_->addWidget(comparison_);
    pages_->setCurrentWidget(comparison_);
    comparison_->show_runs(std::move(sources[0]), std::move(sources[1]));
    return true;
}

void MainWindow::close_comparison() {
    if (!comparison_) return;
    pages_->setCurrentIndex(0);
    pages_->removeWidget(comparison_);
    comparison_->deleteLater();  // it may be what asked to close
    comparison_ = nullptr;
    for (QDockWidget* dock : docks_under_comparison_) dock->show();
    docks_under_comparison_.clear();
}

void MainWindow::choose_comparison() {
    std::optional<RunReference> shown;
    if (const auto& frame = feed_.last_frame(); frame && frame->recorded)
        shown = RunReference{frame->recorded->file, frame->recorded->run};
    CompareDialog dialog(shown, settings_->last_folder(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    settings_->set_last_folder(dialog.folder());
    open_comparison(dialog.chosen(RunSide::A), dialog.chosen(RunSide::B));
}

}  // namespace pinscope::ui
