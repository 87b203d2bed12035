// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pinscope window: the configuration on the left, the device banner and the numbers on top,
// the timeline and the plots in the middle (the Live tab), the NUMA view and the bandwidth sweep in
// tabs beside it, exports in the File menu. Start, Stop and Freeze view
// in the toolbar; every configuration change applies to the running engine at once.
#include <QMainWindow>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "engine/analysis/Advice.h"
#include "engine/config/LoaderConfig.h"
#include "engine/lesson/Lesson.h"
#include "ui/adapter/FrameView.h"
#include "ui/adapter/RunFeed.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace pinscope {
struct RunReference;
}

namespace pinscope::ui {

class AppSettings;
class BandwidthView;
class ComparisonView;
class ControlPanel;
class DeviceBanner;
class ExportActions;
class FootprintPlot;
class InFlightPlot;
class LessonNumbers;
class LessonPanel;
class LimitsPanel;
class MetricsPanel;
class NumaView;
class NumaViewModel;
class RunKeeper;
class SegmentList;
class ThroughputPlot;
class TimelinePlot;
class TimeSeriesPlot;
class UtilisationPlot;

struct WindowOptions {
    bool persistent_settings = true;  // false: headless runs and tests read and write no settings
    bool dialogs = true;              // false: errors go to errorReported only, never a message box
    FeedOptions feed;
    QString session_folder;           // where live runs are kept unless recorded to a file; empty: the temporary folder
};

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(WindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts a run with the configuration the controls show; false (and the error reported) when
    // the engine refused it.
    bool start();
    void stop();
    void set_frozen(bool frozen);
    // Applies `config` as an edit would: to the running engine, else as what Start runs.
    void set_config(const LoaderConfig& config);
    void reset_config();
    // Loads a configuration file (what File > Open does once a file is chosen); false, and the
    // error reported, when it cannot be read or is not valid.
    bool open_config_file(const QString& path);
    // Shows run `run` of a recording (the file's last run when none is given) through the same
    // views as a live run, stopping a live run first; the controls show its configuration,
    // read-only, until "Run this again here". False, and the error reported, when the file is not
    // a recording this pinscope reads or has no such run.
    bool open_recording(const QString& path, std::optional<std::int64_t> run = std::nullopt);
    // The recording switch (File > Record runs to file, the toolbar's Record): live runs from the
    // next on stream into `path` (created, or appended to when it is a recording); false, and the
    // error reported, when it is not a recording this pinscope writes (left untouched).
    bool record_runs_to(const QString& path);
    void stop_recording_runs();
    // Saves the run shown (the live run, ended or still going, or a recorded one) into the
    // recording at `path` (created, or appended to); false, and the error reported, when it cannot.
    bool save_run_as(const QString& path);
    // Shows a live run of this session that ended (RunKeeper::kept(), oldest first) as recorded.
    bool open_kept_run(std::size_t index);
    // Brings seconds [from_s, to_s] of the run into view (a segment's stretch), freezing it.
    void show_stretch(double from_s, double to_s);
    SegmentList& segments() const { return *segments_; }
    RunKeeper& keeper() const { return *keeper_; }

    // Shows two recorded runs side by side in place of the window's tabs, until close_comparison
    // (ui/window/MainWindowComparison.cpp). False, and the error reported, when either is not a
    // recorded run this pinscope reads.
    bool open_comparison(const RunReference& a, const RunReference& b);
    void close_comparison();
    // The comparison shown; null when none is.
    ComparisonView* comparison() const { return comparison_; }
    // Runs the recorded run's configuration here (the GPU it ran on if this machine has it, else
    // this machine's default device).
    bool run_recorded_again();

    RunFeed& feed() { return feed_; }
    ControlPanel& controls() const { return *controls_; }
    TimelinePlot& timeline() const { return *timeline_; }
    DeviceBanner& banner() const { return *banner_; }
    MetricsPanel& metrics() const { return *metrics_; }
    LimitsPanel& limits() const { return *limits_; }
    // Help > Check this machine: doctor's checks for the configuration in the controls.
    void show_machine_check();
    ExportActions& exports() const { return *exports_; }
    // The timeline and the plots, each with a name for files and menus.
    std::vector<std::pair<QString, QWidget*>> plots() const;
    TimeSeriesPlot& footprint_plot() const;
    // The Bandwidth tab; null when this build has no bandwidth sweep.
    BandwidthView* bandwidth() const { return bandwidth_; }
    NumaView& numa_view() const { return *numa_view_; }

    // Lessons (MainWindowLessons.cpp): opens a built-in lesson by name or a lesson file in the
    // Lessons panel; false, and the error reported, when it is not a valid lesson.
    bool open_lesson(const QString& name_or_path);
    LessonPanel& lesson_panel() const { return *lesson_panel_; }
    LessonNumbers& lesson_numbers() const { return *lesson_numbers_; }
    // Where each lesson step's run is kept (a recording, one run per step); empty: a new file under
    // the application's data folder for each lesson opened (none when settings are not persistent).
    void set_lesson_recording(const QString& path);
    QString lesson_recording() const { return lesson_recording_path_; }
    // Presenter mode (View > Presenter, F11): large type, thick lines, the colour-blind-safe stage
    // palette, and only the lanes, plots and numbers the lesson's step names.
    void set_presenter(bool on);
    bool presenter() const { return presenter_; }
    // Brings a tab to the front: "live" or "numa"; anything else is left alone.
    void show_tab(const QString& name);
    QTabWidget& tabs() const { return *tabs_; }

signals:
    void errorReported(const QString& text);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    std::array<TimeSeriesPlot*, 4> time_plots() const;
    void build_layout();
    void build_actions();
    void wire_feed();
    // Every view takes the frame, then the window brings what it draws up to date.
    void take(const RunFrame& frame);
    // The controls' edit (or a loaded, reset or restored configuration) to the engine; a refusal
    // goes back to the controls, which then show what runs.
    void apply(const LoaderConfig& config);
    void refresh_views(bool plots_too = true);

    void preview_numa(const LoaderConfig& config);
    void update_run_state();
    void report_error(const QString& title, const QString& text);
    void load_config_file();
    void choose_recording();
    void choose_comparison();
    // The recorded run shown, once its frames are in: the whole run in view, the controls read-only.
    void show_recorded(const RunFrame& frame);
    // From a recorded run shown to its configuration in the controls, editable; false when no
    // recorded run is shown.
    bool leave_recorded();
    void save_config_file();
    void show_shortcuts();
    void build_lessons();
    void choose_lesson_file();
    void run_lesson_step(const LoaderConfig& config);
    void lesson_run_ended();
    void show_lesson_highlight(const Highlight& highlight);
    // MainWindowRunFiles.cpp: the recording switch, Save run as and Recent runs in `file`.
    void build_run_files(QMenu* file);
    void choose_recording_target();
    void choose_save_run();
    void update_recent_runs();
    // The "What limits this run" panel (MainWindowLimits.cpp), in its scroll area.
    QWidget* build_limits();
    // A suggestion's Apply: to the running engine, or as a new run when none is going.
    void apply_suggestion(const ConfigChange& change);

    WindowOptions options_;
    std::unique_ptr<AppSettings> settings_;
    RunFeed feed_;
    std::unique_ptr<RunKeeper> keeper_;
    ControlPanel* controls_ = nullptr;
    DeviceBanner* banner_ = nullptr;
    MetricsPanel* metrics_ = nullptr;
    LimitsPanel* limits_ = nullptr;
    TimelinePlot* timeline_ = nullptr;
    FootprintPlot* footprint_ = nullptr;
    ThroughputPlot* throughput_ = nullptr;
    UtilisationPlot* utilisation_ = nullptr;
    InFlightPlot* in_flight_ = nullptr;
    BandwidthView* bandwidth_ = nullptr;
    NumaView* numa_view_ = nullptr;
    SegmentList* segments_ = nullptr;
    QAction* record_switch_ = nullptr;
    QMenu* recent_runs_ = nullptr;
    std::unique_ptr<NumaViewModel> numa_model_;
    std::vector<FrameView*> frame_views_;  // fed every frame, in this order
    std::uint64_t spans_seen_ = 0;         // in the run shown, for the status line
    std::string numa_preview_;  // the selection the NUMA tab previews (topology, GPU, device); empty once a run starts
    QSplitter* splitter_ = nullptr;
    QPushButton* run_again_ = nullptr;  // beside the banner while a recorded run is shown
    QTabWidget* tabs_ = nullptr;
    QStackedWidget* pages_ = nullptr;        // the window's own page, or a comparison
    ComparisonView* comparison_ = nullptr;
    std::vector<QDockWidget*> docks_under_comparison_;  // hidden while it shows, shown again after
    ExportActions* exports_ = nullptr;
    QLabel* status_ = nullptr;
    QAction* start_stop_ = nullptr;
    QAction* freeze_ = nullptr;
    QAction* whole_run_ = nullptr;
    LessonPanel* lesson_panel_ = nullptr;
    QDockWidget* lesson_dock_ = nullptr;
    QDockWidget* config_dock_ = nullptr;
    LessonNumbers* lesson_numbers_ = nullptr;
    QAction* presenter_action_ = nullptr;
    Highlight highlight_;
    bool presenter_ = false;
    bool lesson_run_ = false;        // the run going is a lesson step's
    bool lesson_recording_set_ = false;  // set_lesson_recording was called: keep that file
    QString lesson_recording_path_;
    static constexpr unsigned kPlotFrameDivider = 3;
    unsigned frames_ = 0;
};

}  // namespace pinscope::ui
