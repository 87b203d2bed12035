// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/MainWindow.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/runner/RunPreview.h"
#include "ui/about/AboutDialog.h"
#include "ui/bandwidth/BandwidthPlot.h"
#include "ui/bandwidth/BandwidthView.h"
#include "ui/compare/ComparisonView.h"
#include "ui/controls/ConfigChanges.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/export/ExportActions.h"
#include "ui/limits/LimitsPanel.h"
#include "ui/numa/NumaView.h"
#include "ui/numa/NumaViewModel.h"
#include "ui/plots/FootprintPlot.h"
#include "ui/plots/InFlightPlot.h"
#include "ui/plots/ThroughputPlot.h"
#include "ui/plots/UtilisationPlot.h"
#include "ui/record/RunKeeper.h"
#include "ui/segments/SegmentList.h"
#include "ui/style/AppStyle.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/AppSettings.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MetricsPanel.h"
#include "ui/window/PlotGrid.h"

namespace pinscope::ui {

MainWindow::MainWindow(WindowOptions options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      settings_(std::make_unique<AppSettings>(options.persistent_settings)),
      feed_(options.feed),
      keeper_(std::make_unique<RunKeeper>(feed_, options.session_folder)),
      numa_model_(std::make_unique<NumaViewModel>()) {
    setWindowTitle(QStringLiteral("pinscope"));
    build_layout();
    exports_ = new ExportActions(*this, *settings_, options.feed.span_capacity, options.feed.counter_capacity);
    frame_views_ = {timeline_, footprint_, throughput_, utilisation_, in_flight_, metrics_, banner_, numa_model_.get(), exports_,
                    segments_, limits_};
    build_actions();
    build_lessons();
    wire_feed();
    if (const auto config = settings_->last_config()) controls_->set_config(*config);
    banner_->show_selected(controls_->config());
    preview_numa(controls_->config());
    timeline_->set_live_window(settings_->live_window());
    resize(1600, 1000);
    restoreGeometry(settings_->window_geometry());
    restoreState(settings_->window_state());
    splitter_->restoreState(settings_->splitter_state());
    update_run_state();
}

MainWindow::~MainWindow() {
    feed_.stop();
    // A comparison's readers close before the run keeper's writers, which then leave their files
    // whole, with no -wal beside them.
    delete comparison_;
}

void MainWindow::build_layout() {
    controls_ = new ControlPanel;
    auto* dock = config_dock_ = new QDockWidget(QStringLiteral("Configuration"), this);
    dock->setObjectName(QStringLiteral("configuration"));
    dock->setWidget(controls_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    segments_ = new SegmentList;
    auto* segments_dock = new QDockWidget(QStringLiteral("Segments"), this);
    segments_dock->setObjectName(QStringLiteral("segments"));
    segments_dock->setWidget(segments_);
    segments_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, segments_dock);
    resizeDocks({dock, segments_dock}, {700, 160}, Qt::Vertical);  // the configuration keeps most of the height
    connect(segments_, &SegmentList::segmentChosen, this, &MainWindow::show_stretch);

    banner_ = new DeviceBanner;
    metrics_ = new MetricsPanel;
    timeline_ = new TimelinePlot(options_.feed.span_capacity);
    timeline_->setMinimumHeight(220);
    footprint_ = new FootprintPlot;
    throughput_ = new ThroughputPlot;
    utilisation_ = new UtilisationPlot;
    in_flight_ = new InFlightPlot;

    for (TimeSeriesPlot* plot : time_plots()) plot->setMinimumSize(280, 150);
    auto* plots = new PlotGrid({footprint_, throughput_, utilisation_, in_flight_});

    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->addWidget(timeline_);
    splitter_->addWidget(plots);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    splitter_->setSizes({600, 400});  // the timeline is what people come for
    splitter_->setChildrenCollapsible(false);

    auto* live = new QWidget;
    auto* live_layout = new QVBoxLayout(live);
    live_layout->setContentsMargins(6, 6, 6, 6);
    live_layout->setSpacing(6);
    live_layout->addWidget(metrics_);
    // "What limits this run" beside the timeline and plots, under the numbers; dragged away it collapses.
    auto* beside = new QSplitter(Qt::Horizontal);
    beside->addWidget(splitter_);
    beside->addWidget(build_limits());
    beside->setStretchFactor(0, 1);
    beside->setStretchFactor(1, 0);
    beside->setSizes({900, 370});
    live_layout->addWidget(beside, 1);

    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    tabs_->addTab(live, QStringLiteral("Live"));
    numa_view_ = new NumaView;
    tabs_->addTab(numa_view_, QStringLiteral("NUMA"));
    tabs_->setTabToolTip(1, QStringLiteral("Packages, NUMA nodes and cores, the GPU at its node, where the loader's threads "
                                           "ran and where the pinned pages are"));
    bandwidth_ = new BandwidthView;
    // Scrolled: its row of controls is wider than the Live tab needs, and the tabs' widest page
    // sets the window's least width (with the limits dock beside it, past 1600 pixels).
    auto* bandwidth_page = new QScrollArea;
    bandwidth_page->setWidget(bandwidth_);
    bandwidth_page->setWidgetResizable(true);
    bandwidth_page->setFrameShape(QFrame::NoFrame);
    tabs_->addTab(bandwidth_page, QStringLiteral("Bandwidth"));

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(4);
    run_again_ = new QPushButton(QStringLiteral("Run this again here"));
    run_again_->setToolTip(QStringLiteral("Start a live run with the recorded configuration on this machine (F5)"));
    run_again_->hide();
    connect(run_again_, &QPushButton::clicked, this, &MainWindow::run_recorded_again);
    auto* banner_row = new QHBoxLayout;
    banner_row->addWidget(banner_, 1);
    banner_row->addWidget(run_again_);
    layout->addLayout(banner_row);
    layout->addWidget(tabs_, 1);
    pages_ = new QStackedWidget;
    pages_->addWidget(central);
    setCentralWidget(pages_);

    status_ = new QLabel;
    statusBar()->addPermanentWidget(status_);
}

std::vector<std::pair<QString, QWidget*>> MainWindow::plots() const {
    return {{QStringLiteral("timeline"), timeline_},
            {QStringLiteral("pinned-memory"), footprint_},
            {QStringLiteral("throughput"), throughput_},
            {QStringLiteral("utilisation"), utilisation_},
            {QStringLiteral("in-flight"), in_flight_},
            {QStringLiteral("bandwidth"), &bandwidth_->plot()},
            {QStringLiteral("numa"), numa_view_},
    };
}

TimeSeriesPlot& MainWindow::footprint_plot() const { return *footprint_; }

void MainWindow::show_tab(const QString& name) {
    if (name == QStringLiteral("live")) tabs_->setCurrentIndex(0);
    else if (name == QStringLiteral("numa")) tabs_->setCurrentWidget(numa_view_);
}

std::array<TimeSeriesPlot*, 4> MainWindow::time_plots() const { return {footprint_, throughput_, utilisation_, in_flight_}; }

void MainWindow::build_actions() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QMenu* run = menuBar()->addMenu(QStringLiteral("&Run"));
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    QToolBar* bar = addToolBar(QStringLiteral("Run"));
    bar->setObjectName(QStringLiteral("run toolbar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    start_stop_ = run->addAction(style()->standardIcon(QStyle::SP_MediaPlay), QStringLiteral("Start"));
    start_stop_->setShortcut(Qt::Key_F5);
    connect(start_stop_, &QAction::triggered, this, [this] { feed_.running() ? stop() : static_cast<void>(start()); });
    freeze_ = run->addAction(style()->standardIcon(QStyle::SP_MediaPause), QStringLiteral("Freeze view"));
    freeze_->setCheckable(true);
    freeze_->setShortcut(Qt::Key_F6);
    freeze_->setToolTip(QStringLiteral("Stop following the engine to pan and zoom (drag, wheel); the engine keeps running (F6)"));
    connect(freeze_, &QAction::toggled, this, &MainWindow::set_frozen);
    run->addSeparator();
    QAction* reset = run->addAction(QStringLiteral("Reset configuration to defaults"));
    connect(reset, &QAction::triggered, this, &MainWindow::reset_config);
    connect(controls_, &ControlPanel::resetRequested, this, &MainWindow::reset_config);

    whole_run_ = view->addAction(style()->standardIcon(QStyle::SP_TitleBarMaxButton), QStringLiteral("Show whole run"));
    whole_run_->setShortcut(Qt::Key_Home);
    connect(whole_run_, &QAction::triggered, this, [this] {
        set_frozen(true);
        timeline_->show_all();
    });
    QAction* clear_selection = view->addAction(QStringLiteral("Clear batch highlight"));
    clear_selection->setShortcut(Qt::Key_Escape);
    connect(clear_selection, &QAction::triggered, this, [this] { timeline_->select_batch(std::nullopt); });

    QAction* load = file->addAction(QStringLiteral("Open configuration…"));
    load->setShortcut(QKeySequence::Open);
    connect(load, &QAction::triggered, this, &MainWindow::load_config_file);
    QAction* open_recording = file->addAction(QStringLiteral("Open recording…"));
    open_recording->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(open_recording, &QAction::triggered, this, &MainWindow::choose_recording);
    build_run_files(file);
    QAction* compare = file->addAction(QStringLiteral("Compare with…"));
    compare->setToolTip(QStringLiteral("Two recorded runs side by side: timelines, plots and every figure"));
    connect(compare, &QAction::triggered, this, &MainWindow::choose_comparison);
    QAction* save = file->addAction(QStringLiteral("Save configuration…"));
    save->setShortcut(QKeySequence::Save);
    connect(save, &QAction::triggered, this, &MainWindow::save_config_file);
    file->addSeparator();
    QAction* shot = file->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), QStringLiteral("Screenshot of the window…"));
    shot->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(shot, &QAction::triggered, exports_, &ExportActions::screenshot_window);
    QMenu* plot_shots = file->addMenu(QStringLiteral("Screenshot of a plot"));
    int key = Qt::Key_1;
    for (const auto& [name, widget] : plots()) {
        QAction* a = plot_shots->addAction(QStringLiteral("%1…").arg(name));
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(key++)));
        connect(a, &QAction::triggered, this, [this, n = name, w = widget] { exports_->screenshot_plot(w, n); });
    }
    QMenu* scale = file->addMenu(QStringLiteral("Screenshot scale"));
    auto* scales = new QActionGroup(this);
    for (double s : {1.0, 1.5, 2.0, 3.0}) {
        QAction* a = scale->addAction(QStringLiteral("%1×").arg(s));
        a->setCheckable(true);
        a->setChecked(std::abs(settings_->screenshot_scale() - s) < 0.01);
        scales->addAction(a);
        connect(a, &QAction::triggered, this, [this, s] { settings_->set_screenshot_scale(s); });
    }
    file->addSeparator();
    QAction* csv = file->addAction(QStringLiteral("Export spans and counters (CSV)…"));
    csv->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(csv, &QAction::triggered, exports_, &ExportActions::csv);
    QAction* trace = file->addAction(QStringLiteral("Export Chrome trace (Perfetto)…"));
    trace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    connect(trace, &QAction::triggered, exports_, &ExportActions::chrome_trace);
    QAction* summary = file->addAction(QStringLiteral("Export summary (JSON)…"));
    connect(summary, &QAction::triggered, exports_, &ExportActions::summary);
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QAction* keys = help->addAction(QStringLiteral("Keyboard shortcuts"));
    keys->setShortcut(QKeySequence::HelpContents);
    connect(keys, &QAction::triggered, this, &MainWindow::show_shortcuts);
    QAction* about = help->addAction(QStringLiteral("About pinscope"));
    connect(about, &QAction::triggered, this, [this] { AboutDialog(this).exec(); });
    QAction* check = help->addAction(QStringLiteral("Check this machine…"));
    connect(check, &QAction::triggered, this, &MainWindow::show_machine_check);

    bar->addAction(start_stop_);
    bar->addAction(freeze_);
    bar->addAction(whole_run_);
    bar->addAction(record_switch_);
    bar->addSeparator();
    QAction* shot_button = bar->addAction(shot->icon(), QStringLiteral("Screenshot"));
    shot_button->setToolTip(QStringLiteral("Save the window as PNG, SVG or PDF (Ctrl+P)"));
    connect(shot_button, &QAction::triggered, shot, &QAction::trigger);
    connect(exports_, &ExportActions::saved, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(controls_, &ControlPanel::configEdited, this, &MainWindow::apply);
    connect(timeline_, &TimelinePlot::liveWindowChanged, this, [this](double s) { settings_->set_live_window(s); });
}

void MainWindow::wire_feed() {
    connect(&feed_, &RunFeed::started, this, &MainWindow::update_run_state);
    connect(&feed_, &RunFeed::frame, this, &MainWindow::take);
    connect(&feed_, &RunFeed::ended, this, [this] {
        update_run_state();
        const RunSummary& s = feed_.last_frame()->summary;
        const QString ended = feed_.last_frame()->recorded ? QStringLiteral("Recorded run of %1 s") : QStringLiteral("Run ended after %1 s");
        statusBar()->showMessage(s.error.empty() ? (ended + QStringLiteral(": %2 batches, %3 batches/s"))
                                                       .arg(s.metrics.wall_s, 0, 'f', 1)
                                                       .arg(s.metrics.batches)
                                                       .arg(s.metrics.batches_per_s, 0, 'f', 1)
                                                 : QStringLiteral("Run failed: %1").arg(QString::fromStdString(s.error)));
    });
    connect(&feed_, &RunFeed::engineMessage, this, [this](Severity severity, const QString& text) {
        if (severity == Severity::Error) report_error(QStringLiteral("The engine reported an error"), text);
        else statusBar()->showMessage(text, 10000);
    });
}

void MainWindow::take(const RunFrame& frame) {
    if (frame.first) {
        numa_preview_.clear();
        spans_seen_ = 0;
    }
    for (FrameView* view : frame_views_) view->take(frame);
    if (frame.recorded) show_recorded(frame);
    spans_seen_ += frame.spans.size();
    // The timeline moves at the poll rate; the plots and the status line at a third of it, which
    // reads the same and leaves the CPU to the engine.
    refresh_views(frame.ended || ++frames_ % kPlotFrameDivider == 0);
}

void MainWindow::refresh_views(bool plots_too) {
    const std::shared_ptr<const RunFrame>& frame = feed_.last_frame();
    if (!frame) return;
    const double now = frame->seconds();
    timeline_->refresh(now, feed_.running());
    if (!plots_too) return;
    for (TimeSeriesPlot* plot : time_plots())
        plot->refresh(now);
    numa_view_->show_snapshot(numa_model_->update());
    controls_->set_run_topology(frame->topology);
    const std::uint64_t dropped = frame->summary.dropped_spans;
    status_->setText(QStringLiteral("%1 · %2 s · %3 spans%4")
                         .arg(feed_.running() ? QStringLiteral("running") : QStringLiteral("stopped"))
                         .arg(now, 0, 'f', 1)
                         .arg(QLocale().toString(static_cast<qulonglong>(spans_seen_)))
                         .arg(dropped ? QStringLiteral(" (%1 lost: read too late)").arg(QLocale().toString(static_cast<qulonglong>(dropped)))
                                      : QString()));
}

// While no run is going, the NUMA tab shows the machine the selection names, without marks, so
// that placements can be chosen by looking at it; selecting the last run's machine again shows
// that run's marks.
void MainWindow::preview_numa(const LoaderConfig& config) {
    if (feed_.running()) return;
    const std::string selection = config.topology_xml + '\n' + config.gpu_pci_bus_id + '\n' + config.device;
    if (selection == numa_preview_) return;  // most edits change something else: no need to load it again
    numa_preview_ = selection;
    const std::shared_ptr<const RunFrame>& last = feed_.last_frame();
    if (last && last->summary.config.topology_xml == config.topology_xml &&
        last->summary.config.gpu_pci_bus_id == config.gpu_pci_bus_id) {
        numa_view_->show_snapshot(numa_model_->update());  // back to the last run's machine: its marks
        controls_->set_run_topology(last->topology);
        return;
    }
    RunFrame preview;
    try {
        preview = preview_frame(config, cuda_devices());
    } catch (const ConfigError&) {
        return;  // the controls say what is wrong with the file
    }
    NumaViewModel model;  // the last run's stays as it was
    model.take(preview);
    numa_view_->show_snapshot(model.update());
    controls_->set_run_topology(preview.topology);
}

void MainWindow::update_run_state() {
    const bool running = feed_.running();
    start_stop_->setText(running ? QStringLiteral("Stop") : QStringLiteral("Start"));
    start_stop_->setIcon(style()->standardIcon(running ? QStyle::SP_MediaStop : QStyle::SP_MediaPlay));
    start_stop_->setToolTip(running ? QStringLiteral("Stop the run at once: the batches in flight are dropped and every pinned block is freed (F5)")
                                    : QStringLiteral("Start a run with this configuration (F5)"));
    if (!feed_.has_run()) status_->setText(QStringLiteral("ready"));
}

bool MainWindow::start() {
    leave_recorded();  // Start on a recorded run runs it again here
    controls_->flush();  // an edit still pending is applied, or refused, first
    const LoaderConfig config = controls_->applied();
    try {
        keeper_->prepare();  // the recording the run streams into
        feed_.start(config);
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot start"), QString::fromStdString(e.what()));
        update_run_state();
        return false;
    }
    set_frozen(false);
    statusBar()->showMessage(QStringLiteral("Running"), 3000);
    return true;
}

void MainWindow::stop() {
    feed_.stop();
    update_run_state();
}

void MainWindow::set_frozen(bool frozen) {
    if (freeze_->isChecked() != frozen) {
        freeze_->setChecked(frozen);  // comes back here through toggled
        return;
    }
    timeline_->set_frozen(frozen);
    for (TimeSeriesPlot* plot : time_plots())
        plot->set_frozen(frozen);
    freeze_->setText(frozen ? QStringLiteral("Follow live") : QStringLiteral("Freeze view"));
    refresh_views();
}

// The change is said against what the controls applied last, as asked for: the engine's own
// configuration holds the device it resolved ("auto" runs as "emulated" or "cuda:0"), which the
// controls never show.
void MainWindow::apply(const LoaderConfig& config) {
    if (feed_.running()) {
        const QString changes = change_text(controls_->applied(), config);
        try {
            feed_.reconfigure(config);
        } catch (const std::exception& e) {
            controls_->refuse(config, QString::fromStdString(e.what()));
            return;
        }
        if (!changes.isEmpty()) statusBar()->showMessage(QStringLiteral("Reconfiguring: %1").arg(changes), 5000);
    } else {
        banner_->show_selected(config);
        preview_numa(config);
    }
    settings_->set_last_config(config);
    controls_->set_config(config);
}

void MainWindow::set_config(const LoaderConfig& config) { apply(config); }

void MainWindow::reset_config() {
    settings_->forget_config();
    LoaderConfig config = ControlPanel::defaults();
    config.device = controls_->applied().device;  // the device stays: resetting should not switch GPUs
    set_config(config);
}

void MainWindow::report_error(const QString& title, const QString& text) {
    statusBar()->showMessage(QStringLiteral("%1: %2").arg(title, text), 15000);
    emit errorReported(QStringLiteral("%1: %2").arg(title, text));
    if (options_.dialogs) QMessageBox::critical(this, title, text);
}

void MainWindow::load_config_file() {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a configuration"), settings_->last_folder(),
                                                      QStringLiteral("pinscope configuration (*.json)"));
    if (path.isEmpty()) return;
    settings_->set_last_folder(QFileInfo(path).absolutePath());
    open_config_file(path);
}

bool MainWindow::open_config_file(const QString& path) {
    try {
        // The keys it leaves out keep the window's defaults: no run length means until Stop.
        const LoaderConfig config = pinscope::load_config_file(path.toStdString(), ControlPanel::defaults());
        validate(config);
        set_config(config);
        return true;
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot open the configuration"), QString::fromStdString(e.what()));
        return false;
    }
}

void MainWindow::save_config_file() {
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save the configuration"),
                                                      QDir(settings_->last_folder()).filePath(QStringLiteral("pinscope-config.json")),
                                                      QStringLiteral("pinscope configuration (*.json)"));
    if (path.isEmpty()) return;
    settings_->set_last_folder(QFileInfo(path).absolutePath());
    controls_->flush();  // saved is what is in effect
    try {
        pinscope::save_config_file(path.toStdString(), controls_->applied());
        statusBar()->showMessage(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), 8000);
    } catch (const std::exception& e) {
        report_error(QStringLiteral("Cannot save the configuration"), QString::fromStdString(e.what()));
    }
}

void MainWindow::show_shortcuts() {
    QMessageBox::information(
        this, QStringLiteral("Keyboard shortcuts"),
        QStringLiteral("<table cellpadding=3>"
                       "<tr><td><b>F5</b></td><td>Start / Stop</td></tr>"
                       "<tr><td><b>F6</b></td><td>Freeze view / follow live (the engine keeps running)</td></tr>"
                       "<tr><td><b>Home</b></td><td>Show the whole run (freezes the view)</td></tr>"
                       "<tr><td><b>Wheel</b></td><td>Live: how many seconds the timeline shows; frozen: zoom</td></tr>"
                       "<tr><td><b>Drag</b></td><td>Frozen: pan</td></tr>"
                       "<tr><td><b>Click a span</b></td><td>Highlight its batch across the lanes; Esc clears</td></tr>"
                       "<tr><td><b>Ctrl+P</b></td><td>Screenshot of the window (PNG, SVG, PDF)</td></tr>"
                       "<tr><td><b>Ctrl+1…%1</b></td><td>Screenshot of the timeline or of one plot</td></tr>"
                       "<tr><td><b>Ctrl+E</b></td><td>Export spans and counters (CSV)</td></tr>"
                       "<tr><td><b>Ctrl+T</b></td><td>Export the Chrome trace (Perfetto)</td></tr>"
                       "<tr><td><b>Ctrl+O / Ctrl+S</b></td><td>Open / save a configuration</td></tr>"
                       "<tr><td><b>F11</b></td><td>Presenter mode: large type, only what the lesson's step needs</td></tr>"
                       "</table>")
            .arg(plots().size()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    feed_.stop();
    settings_->save_window(saveGeometry(), saveState(), splitter_->saveState());
    event->accept();
}

}  // namespace pinscope::ui
