// SPDX-License-Identifier: GPL-3.0-or-later
// The window's "What limits this run" panel and Help > Check this machine: the bottleneck, the
// suggestions and their Apply (ui/limits/LimitsPanel), doctor's checks (ui/limits/MachineCheckDialog).
#include <QScrollArea>

#include "engine/advice/Advisor.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/limits/LimitsPanel.h"
#include "ui/limits/MachineCheckDialog.h"
#include "ui/window/MainWindow.h"

namespace pinscope::ui {

QWidget* MainWindow::build_limits() {
    limits_ = new LimitsPanel;
    auto* scroll = new QScrollArea;
    scroll->setWidget(limits_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(300);  // the sentence and the bars stay readable beside the plots
    connect(limits_, &LimitsPanel::applyRequested, this, &MainWindow::apply_suggestion);
    connect(limits_, &LimitsPanel::runAgainRequested, this, &MainWindow::run_recorded_again);
    return scroll;
}

void MainWindow::apply_suggestion(const ConfigChange& change) {
    controls_->flush();
    LoaderConfig config;
    try {
        config = apply_change(controls_->applied(), change);
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot apply %1").arg(QString::fromStdString(change.text())), QString::fromStdString(e.what()));
        return;
    }
    const bool was_running = feed_.running();
    set_config(config);
    if (!was_running) start();
}

void MainWindow::show_machine_check() {
    controls_->flush();
    auto* dialog = new MachineCheckDialog(controls_->applied(), cuda_devices(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();  // window-modal, and the run goes on meanwhile
}

}  // namespace pinscope::ui
