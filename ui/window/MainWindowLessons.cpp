// SPDX-License-Identifier: GPL-3.0-or-later
// The window's lessons: the Lessons menu and panel, each step run in the window and kept in the
// lesson's recording, the step's lanes, plots and numbers brought forward, and presenter mode.
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include "engine/config/ConfigValidation.h"
#include "engine/lesson/LessonLoader.h"
#include "engine/lesson/LessonRun.h"
#include "engine/record/RunReference.h"
#include "ui/controls/ControlPanel.h"
#include "ui/lessons/LessonNumbers.h"
#include "ui/lessons/LessonPanel.h"
#include "ui/lessons/PresenterStyle.h"
#include "ui/plots/FootprintPlot.h"
#include "ui/plots/InFlightPlot.h"
#include "ui/plots/ThroughputPlot.h"
#include "ui/plots/UtilisationPlot.h"
#include "ui/record/RunKeeper.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/AppSettings.h"
#include "ui/window/MainWindow.h"
#include "ui/window/MetricsPanel.h"

namespace pinscope::ui {
namespace {

std::optional<LaneKind> lane_kind(const std::string& name) {
    if (name == "worker") return LaneKind::Worker;
    if (name == "pin thread") return LaneKind::PinThread;
    if (name == "consumer") return LaneKind::Consumer;
    if (name == "copy stream") return LaneKind::CopyStream;
    if (name == "compute stream") return LaneKind::ComputeStream;
    return std::nullopt;
}

QMenu* menu_named(QMenuBar& bar, const QString& title) {
    for (QAction* action : bar.actions())
        if (action->menu() && action->text() == title) return action->menu();
    return nullptr;
}

const QColor kLessonPlotBackground(0xFF, 0xF6, 0xDC);  // a step's plots, outside presenter mode
constexpr double kLessonTimelineS = 0.3;                // the timeline at a step's end: its last 0.3 s

}  // namespace

void MainWindow::build_lessons() {
    lesson_panel_ = new LessonPanel;
    lesson_dock_ = new QDockWidget(QStringLiteral("Lesson"), this);
    lesson_dock_->setObjectName(QStringLiteral("lesson"));
    lesson_dock_->setWidget(lesson_panel_);
    lesson_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    // A tab beside the configuration: the timeline keeps its width, and the configuration stays a
    // click away.
    addDockWidget(Qt::LeftDockWidgetArea, lesson_dock_);
    tabifyDockWidget(config_dock_, lesson_dock_);
    lesson_dock_->hide();

    // The step's numbers, large, above the timeline: presenter mode's in place of the numbers panel.
    lesson_numbers_ = new LessonNumbers;
    lesson_numbers_->hide();
    if (auto* live = qobject_cast<QVBoxLayout*>(metrics_->parentWidget()->layout())) live->insertWidget(0, lesson_numbers_);
    frame_views_.push_back(lesson_numbers_);

    QMenu* lessons = new QMenu(QStringLiteral("&Lessons"), this);
    menuBar()->insertMenu(menuBar()->actions().last(), lessons);  // before Help
    for (const std::string& name : builtin_lesson_names()) {
        QString title = QString::fromStdString(name);
        try {
            title = QString::fromStdString(load_lesson(name).title);
        } catch (const LessonError&) {
        }
        QAction* open = lessons->addAction(title);
        open->setToolTip(QString::fromStdString(name));
        connect(open, &QAction::triggered, this, [this, n = QString::fromStdString(name)] { open_lesson(n); });
    }
    lessons->addSeparator();
    QAction* file = lessons->addAction(QStringLiteral("Open lesson file…"));
    connect(file, &QAction::triggered, this, &MainWindow::choose_lesson_file);
    lessons->addAction(lesson_dock_->toggleViewAction());
    lesson_dock_->toggleViewAction()->setText(QStringLiteral("Show lesson panel"));

    if (QMenu* view = menu_named(*menuBar(), QStringLiteral("&View"))) {
        view->addSeparator();
        presenter_action_ = view->addAction(QStringLiteral("Presenter"));
        presenter_action_->setCheckable(true);
        presenter_action_->setShortcut(Qt::Key_F11);
        presenter_action_->setToolTip(QStringLiteral("Large type, thick lines, colour-blind-safe colours, and only what the "
                                                     "lesson's step needs (F11)"));
        connect(presenter_action_, &QAction::toggled, this, &MainWindow::set_presenter);
    }

    // Two steps side by side: both runs are in the lesson's recording.
    lesson_panel_->set_compare_hook([this](std::int64_t a, std::int64_t b) {
        if (a < 1 || b < 1 || lesson_recording_path_.isEmpty()) {
            statusBar()->showMessage(QStringLiteral("Only steps whose runs were kept can be compared"), 10000);
            return;
        }
        const std::string path = lesson_recording_path_.toStdString();
        open_comparison(RunReference{path, a, 0}, RunReference{path, b, 0});
    });
    connect(lesson_panel_, &LessonPanel::runRequested, this, &MainWindow::run_lesson_step);
    connect(lesson_panel_, &LessonPanel::stepShown, this, &MainWindow::show_lesson_highlight);
    connect(&feed_, &RunFeed::ended, this, &MainWindow::lesson_run_ended);
}

void MainWindow::set_lesson_recording(const QString& path) {
    lesson_recording_path_ = path;
    lesson_recording_set_ = true;
}

bool MainWindow::open_lesson(const QString& name_or_path) {
    LessonOptions options;
    options.device = controls_->applied().device;
    try {
        Lesson lesson = load_lesson(name_or_path.toStdString(), options);
        if (!lesson_recording_set_) {
            lesson_recording_path_.clear();
            if (options_.persistent_settings) {
                const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/lessons");
                lesson_recording_path_ = QDir(folder).filePath(QStringLiteral("%1-%2.pinscope")
                                                                   .arg(QString::fromStdString(lesson.name),
                                                                        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
            }
        }
        lesson_panel_->open(std::move(lesson));
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot open the lesson"), QString::fromStdString(e.what()));
        return false;
    }
    lesson_dock_->show();
    lesson_dock_->raise();
    return true;
}

void MainWindow::choose_lesson_file() {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a lesson"), settings_->last_folder(),
                                                      QStringLiteral("pinscope lesson (*.json)"));
    if (path.isEmpty()) return;
    settings_->set_last_folder(QFileInfo(path).absolutePath());
    open_lesson(path);
}

void MainWindow::run_lesson_step(const LoaderConfig& config) {
    // A refused step is the lesson's point (a budget too small): said in the panel, not as an error.
    if (const auto issues = find_config_issues(config); !issues.empty()) {
        StepResult refused;
        refused.refused = issues.front().message();
        QTimer::singleShot(0, this, [this, refused] { lesson_panel_->step_finished(refused); });
        return;
    }
    if (feed_.running()) stop();  // a step is a run of its own, not a change to the one going
    set_config(config);
    // The step's run is kept in the lesson's own recording (not the session's), for Compare with.
    if (!lesson_recording_path_.isEmpty()) {
        try {
            QDir().mkpath(QFileInfo(lesson_recording_path_).absolutePath());
            keeper_->keep_next_run_in(lesson_recording_path_);
        } catch (const std::exception& e) {
            statusBar()->showMessage(QStringLiteral("The lesson's runs are not kept: %1").arg(QString::fromStdString(e.what())), 15000);
            lesson_recording_path_.clear();
        }
    }
    lesson_run_ = true;
    if (!start()) {
        lesson_run_ = false;
        StepResult failed;
        failed.summary.error = "the run could not start";
        lesson_panel_->step_finished(failed);
    }
}

void MainWindow::lesson_run_ended() {
    if (!lesson_run_) return;
    lesson_run_ = false;
    const std::shared_ptr<const RunFrame>& frame = feed_.last_frame();
    if (!frame) return;
    StepResult result = step_result(frame->summary, frame->window, frame->window_bottleneck);
    // The class looks at the end of the step's run, spans wide enough to read.
    set_frozen(true);
    timeline_->show_all();
    const QCPRange whole = timeline_->xAxis->range();
    timeline_->xAxis->setRange(std::max(whole.lower, whole.upper - kLessonTimelineS), whole.upper);
    timeline_->replot(QCustomPlot::rpQueuedReplot);
    if (const std::optional<KeptRun> kept = keeper_->live_run();
        kept && !lesson_recording_path_.isEmpty() && QFileInfo(kept->path) == QFileInfo(lesson_recording_path_))
        result.recorded_run = kept->run;
    lesson_panel_->step_finished(result);
}

void MainWindow::show_lesson_highlight(const Highlight& highlight) {
    highlight_ = highlight;
    const bool lesson = lesson_panel_->has_lesson();
    std::vector<LaneKind> lanes;
    for (const std::string& name : highlight.lanes)
        if (const auto kind = lane_kind(name)) lanes.push_back(*kind);
    timeline_->set_lesson_lanes(lesson ? lanes : std::vector<LaneKind>{}, presenter_);
    const std::vector<std::pair<QString, TimeSeriesPlot*>> named{{QStringLiteral("pinned-memory"), footprint_},
                                                                  {QStringLiteral("throughput"), throughput_},
                                                                  {QStringLiteral("utilisation"), utilisation_},
                                                                  {QStringLiteral("in-flight"), in_flight_}};
    const auto named_in_step = [&](const QString& name) {
        return std::find(highlight.plots.begin(), highlight.plots.end(), name.toStdString()) != highlight.plots.end();
    };
    bool any_plot = false;
    for (const auto& [name, plot] : named) any_plot = any_plot || named_in_step(name);
    for (const auto& [name, plot] : named) {
        const bool in_step = lesson && named_in_step(name);
        plot->setBackground(in_step && !presenter_ ? QBrush(kLessonPlotBackground) : QBrush(Qt::white));
        plot->setVisible(!presenter_ || !lesson || !any_plot || in_step);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    lesson_numbers_->set_figures(highlight.numbers);
    if (feed_.last_frame()) lesson_numbers_->take(*feed_.last_frame());
    const bool numbers = presenter_ && lesson && !highlight.numbers.empty();
    lesson_numbers_->setVisible(numbers);
    metrics_->setVisible(!numbers);
}

void MainWindow::set_presenter(bool on) {
    if (presenter_action_ && presenter_action_->isChecked() != on) {
        presenter_action_->setChecked(on);  // comes back here through toggled
        return;
    }
    presenter_ = on;
    set_presenter_style(*this, on);
    config_dock_->setVisible(!on);
    // The lesson's text at presenter size needs room: a third of the window, while it is on.
    if (on && lesson_panel_->has_lesson()) {
        lesson_dock_->show();
        resizeDocks({lesson_dock_}, {width() / 3}, Qt::Horizontal);
    }
    show_lesson_highlight(highlight_);
    refresh_views();
}

}  // namespace pinscope::ui
