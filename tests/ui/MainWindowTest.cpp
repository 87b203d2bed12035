// SPDX-License-Identifier: GPL-3.0-or-later
// The window as a user drives it: it builds, a run fills the timeline within a second, toggling
// pin_memory reconfigures the running engine and marks the timeline (the status line saying only
// that), a refused value is said in view and the controls show what runs, freezing keeps the view
// while the engine runs, clicking a span highlights its batch, a configuration file without a run
// length runs until Stop.
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "engine/topology/MachineTopology.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/NumaControls.h"
#include "ui/numa/NumaView.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/timeline/SpanPlottable.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MetricsPanel.h"

using namespace pinscope;

namespace {

bool has_lane(const ui::SpanStore& store, Lane lane) { return store.row_of(lane) >= 0; }

std::size_t count_stage(const ui::SpanStore& store, Stage stage, TimeNs after) {
    std::size_t n = 0;
    for (const auto& lane : store.lanes())
        for (const Span& s : lane.spans) n += s.stage == stage && s.start > after;
    return n;
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

    std::unique_ptr<ui::MainWindow> window_;

    std::vector<Marker> markers_;  // every marker the window was fed

    const ui::SpanStore& spans() { return window_->timeline().store(); }
    const RunFrame& frame() { return *window_->feed().last_frame(); }
    LoaderConfig engine_config() { return frame().summary.config; }
    void start_and_wait_for_spans() {
        QVERIFY(window_->start());
        QTRY_VERIFY_WITH_TIMEOUT(spans().size() > 200, 5000);
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void init() {
        window_ = std::make_unique<ui::MainWindow>(test::quiet_window());
        markers_.clear();
        connect(&window_->feed(), &ui::RunFeed::frame, window_.get(), [this](const RunFrame& f) {
            markers_.insert(markers_.end(), f.markers.begin(), f.markers.end());
        });
        window_->set_config(test::live_config());
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() { window_.reset(); }

    void windowBuilds() {
        QVERIFY(window_->controls().pin_memory()->isChecked());
        QCOMPARE(window_->controls().num_workers()->value(), 4);
        QCOMPARE(window_->controls().prefetch_factor()->value(), 2);
        QVERIFY(window_->banner().is_emulated());
        QVERIFY(window_->banner().text().contains(QStringLiteral("Emulated device")));
        QVERIFY(!window_->feed().running());
        QVERIFY(spans().empty());
        QVERIFY(window_->plots().size() >= 5u);  // timeline, 4 plots (and the bandwidth plot where built)
    }

    void runFillsTheTimelineWithinASecond() {
        QVERIFY(window_->start());
        QTRY_VERIFY_WITH_TIMEOUT(has_lane(spans(), {LaneKind::ComputeStream, 0}), 1000);
        QTRY_VERIFY_WITH_TIMEOUT(spans().lanes().size() == 8, 2000);  // 4 workers, pin thread, consumer, 2 streams
        QVERIFY(has_lane(spans(), {LaneKind::Worker, 3}));
        QVERIFY(has_lane(spans(), {LaneKind::PinThread, 0}));
        QTRY_VERIFY(window_->metrics().value_of(QStringLiteral("batches/s")).toDouble() > 10);
        QTRY_VERIFY(window_->footprint_plot().point_count() > 10);
        QVERIFY(window_->timeline().spans()->last_draw().boxes + window_->timeline().spans()->last_draw().folds > 0);
    }

    void togglingPinMemoryReconfiguresTheEngineAndMarksTheTimeline() {
        start_and_wait_for_spans();
        QVERIFY(engine_config().pin_memory);
        window_->controls().pin_memory()->click();
        window_->controls().flush();
        QTRY_VERIFY_WITH_TIMEOUT(!engine_config().pin_memory, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(window_->timeline().marker_count() >= 1, 3000);
        QVERIFY2(window_->timeline().marker_texts().join(QLatin1Char('|')).contains(QStringLiteral("pin_memory: on → off")),
                 qPrintable(window_->timeline().marker_texts().join(QLatin1Char('|'))));
        // Its effect shows: no more pinning, and the consumer is held in pageable copies.
        const TimeNs marker = markers_.back().time;
        QTRY_VERIFY_WITH_TIMEOUT(count_stage(spans(), Stage::Staging, marker) > 20, 5000);
        QCOMPARE(count_stage(spans(), Stage::Pin, marker), 0u);
    }

    void moreWorkersAddLanes() {
        start_and_wait_for_spans();
        window_->controls().num_workers()->setValue(6);
        window_->controls().flush();
        QTRY_VERIFY_WITH_TIMEOUT(has_lane(spans(), {LaneKind::Worker, 5}), 5000);
        QCOMPARE(engine_config().num_workers, 6u);
    }

    // Prefetch 12 with 8 workers (pool) is refused: the reason is in view in the 1600x1000
    // window, the spin box shows the 6 the engine runs, and a later unrelated change (pin_memory
    // off, with which 12 would be allowed) does not bring 12 in with it.
    void aRefusedValueIsInViewAndNotAppliedLater() {
        LoaderConfig config = test::live_config(true, 8);
        config.batch_size = 8;  // 8 MiB blocks: 51 fit 512 MiB, the 99 of prefetch 12 do not
        config.prefetch_factor = 6;
        config.pinned_budget_bytes = 512u << 20;
        window_->set_config(config);
        start_and_wait_for_spans();
        ui::ControlPanel& controls = window_->controls();
        controls.prefetch_factor()->selectAll();
        QTest::keyClicks(controls.prefetch_factor(), QStringLiteral("12"));
        QVERIFY(controls.applies_after_pause());
        controls.flush();  // the pause ends
        QCOMPARE(controls.prefetch_factor()->value(), 6);
        QCOMPARE(engine_config().prefetch_factor, std::optional<std::uint32_t>(6));
        QVERIFY(window_->feed().running());
        const QLabel* message = controls.issue_label();
        QVERIFY2(message->text().startsWith(QStringLiteral("Not applied: prefetch_factor: 6 → 12")), qPrintable(message->text()));
        QVERIFY(message->text().contains(QStringLiteral("pinned_budget_bytes")));
        QVERIFY(message->isVisible());
        QVERIFY(!message->visibleRegion().isEmpty());
        QVERIFY(window_->rect().contains(QRect(message->mapTo(window_.get(), QPoint(0, 0)), message->size())));

        controls.pin_memory()->click();
        controls.flush();
        QTRY_VERIFY_WITH_TIMEOUT(!engine_config().pin_memory, 3000);
        QCOMPARE(engine_config().prefetch_factor, std::optional<std::uint32_t>(6));
        QCOMPARE(controls.prefetch_factor()->value(), 6);
        QVERIFY(controls.issue_text().isEmpty());
    }

    // With device auto the engine runs "emulated" (or "cuda:0"); a change of pin_memory says just that.
    void aChangeSaysOnlyWhatChanged() {
        LoaderConfig config = test::live_config();
        config.device = "auto";
        window_->set_config(config);
        start_and_wait_for_spans();
        QVERIFY(engine_config().device != "auto");
        window_->controls().pin_memory()->click();
        window_->controls().flush();
        QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Reconfiguring: pin_memory: on → off"));
        QCOMPARE(window_->controls().device()->currentData().toString(), QStringLiteral("auto"));
    }

    // The window's own default is to run until Stop: a file without seconds or batches keeps it;
    // a file that sets one keeps that.
    void aConfigurationFileWithoutARunLengthRunsUntilStop() {
        QTemporaryDir dir;
        const auto file = [&](const QString& name, const QByteArray& json) {
            QFile out(dir.filePath(name));
            return out.open(QIODevice::WriteOnly) && out.write(json) == json.size() ? dir.filePath(name) : QString();
        };
        QVERIFY(window_->open_config_file(file(QStringLiteral("batches.json"), R"({"batches": 100})")));
        QCOMPARE(window_->controls().applied().batches, std::optional<std::uint64_t>(100));
        QVERIFY(!window_->controls().applied().seconds);
        QVERIFY(window_->open_config_file(file(QStringLiteral("seconds.json"), R"({"seconds": 5})")));
        QCOMPARE(window_->controls().applied().seconds, std::optional<double>(5));
        QVERIFY(window_->open_config_file(file(QStringLiteral("workers.json"), R"({"num_workers": 2, "device": "emulated"})")));
        QCOMPARE(window_->controls().applied().num_workers, 2u);
        QCOMPARE(window_->controls().applied().seconds, std::optional<double>(ui::ControlPanel::kUntilStoppedSeconds));
        QVERIFY(!window_->controls().applied().batches);
        QVERIFY(window_->start());
        QCOMPARE(engine_config().seconds, std::optional<double>(ui::ControlPanel::kUntilStoppedSeconds));
    }

    void freezingKeepsTheViewWhileTheEngineRuns() {
        start_and_wait_for_spans();
        window_->set_frozen(true);
        const QCPRange range = window_->timeline().xAxis->range();
        const std::size_t before = spans().size();
        // Polls bring new spans, which would move a live view; the frozen one stays.
        QTRY_VERIFY(spans().size() > before + 100);
        window_->feed().poll();
        QCoreApplication::processEvents();
        QCOMPARE(window_->timeline().xAxis->range().lower, range.lower);
        QCOMPARE(window_->timeline().xAxis->range().upper, range.upper);
        window_->set_frozen(false);
        QTRY_VERIFY(window_->timeline().xAxis->range().upper > range.upper);
    }

    void clickingASpanHighlightsItsBatchAcrossTheLanes() {
        start_and_wait_for_spans();
        // The live view (its last 0.3 s) full of the run's spans.
        QTRY_VERIFY(frame().seconds() > 0.6);
        window_->set_frozen(true);
        ui::TimelinePlot& timeline = window_->timeline();
        timeline.replot(QCustomPlot::rpImmediateRefresh);
        // A compute span well inside the view, wide enough to click.
        const auto& compute = spans().lanes()[static_cast<std::size_t>(spans().row_of({LaneKind::ComputeStream, 0}))];
        const QCPRange range = timeline.xAxis->range();
        const Span* target = nullptr;
        for (const Span& s : compute.spans) {
            const double from = static_cast<double>(s.start - frame().origin) * 1e-9;
            const double to = static_cast<double>(s.end - frame().origin) * 1e-9;
            if (from > range.lower + range.size() * 0.3 && to < range.upper - range.size() * 0.1) target = &s;
        }
        QVERIFY(target != nullptr);
        const Span clicked = *target;
        const double mid = static_cast<double>((clicked.start + clicked.end) / 2 - frame().origin) * 1e-9;
        const QPoint pos(static_cast<int>(timeline.xAxis->coordToPixel(mid)),
                         static_cast<int>(timeline.yAxis->coordToPixel(spans().row_of(clicked.lane))));
        QTest::mouseClick(&timeline, Qt::LeftButton, Qt::NoModifier, pos);
        QCOMPARE(timeline.selected_batch(), std::optional<std::uint64_t>(clicked.batch));
        const auto& path = timeline.spans()->highlight();
        QVERIFY(path.size() >= 5);
        bool loaded = false, copied = false, computed = false;
        for (const Span& s : path) {
            QCOMPARE(s.batch, clicked.batch);
            loaded |= s.stage == Stage::Load;
            copied |= s.stage == Stage::H2D;
            computed |= s.stage == Stage::Compute;
        }
        QVERIFY(loaded && copied && computed);
        // Between two lanes there is no span: a click there clears the highlight.
        const QPoint between(pos.x(), static_cast<int>(timeline.yAxis->coordToPixel(spans().row_of(clicked.lane) - 0.5)));
        QVERIFY(!timeline.span_at(between));
        QTest::mouseClick(&timeline, Qt::LeftButton, Qt::NoModifier, between);
        QVERIFY(!timeline.selected_batch());
    }

    // Before any run the tab shows the machine the selection names, so that placements can be
    // chosen by looking at it: this machine, then a shipped sample once it is selected. A run then
    // marks the CPUs its threads ran on.
    void theNumaTabShowsTheSelectedMachineAndFollowsTheRun() {
        QCOMPARE(window_->tabs().tabText(1), QStringLiteral("NUMA"));
        window_->show_tab(QStringLiteral("numa"));
        QCOMPARE(window_->tabs().currentWidget(), &window_->numa_view());
        QVERIFY(window_->plots().back().first == QStringLiteral("numa"));
        QVERIFY2(window_->numa_view().banner_text().startsWith(QStringLiteral("This machine: ")),
                 qPrintable(window_->numa_view().banner_text()));
        QVERIFY(window_->numa_view().snapshot().lanes[0].empty());
        // The placement controls know this machine too: on one node, remote is greyed before any run.
        QCOMPARE(window_->controls().numa().node_count(), static_cast<int>(this_machine_topology()->nodes.size()));

        LoaderConfig sample = test::live_config();
        sample.topology_xml = "2-socket-2-gpu";
        window_->set_config(sample);
        QVERIFY2(window_->numa_view().banner_text().startsWith(QStringLiteral("Loaded topology: 2-socket-2-gpu")),
                 qPrintable(window_->numa_view().banner_text()));
        QCOMPARE(window_->numa_view().snapshot().nodes.size(), std::size_t{2});
        QVERIFY(window_->numa_view().snapshot().gpu.in_topology);

        window_->set_config(test::live_config());
        QVERIFY(window_->numa_view().banner_text().startsWith(QStringLiteral("This machine: ")));
        start_and_wait_for_spans();
        const auto marked = [](const ui::NumaSnapshot& s) {
            bool any = false;
            for (const auto& lane : s.lanes) any = any || !lane.empty();
            return any;
        };
        QTRY_VERIFY(marked(window_->numa_view().snapshot()));
        QVERIFY(!window_->numa_view().snapshot().nodes.empty());

        window_->stop();
        window_->set_config(sample);
        QVERIFY(window_->numa_view().banner_text().startsWith(QStringLiteral("Loaded topology: 2-socket-2-gpu")));
        QVERIFY(!marked(window_->numa_view().snapshot()));
        window_->set_config(test::live_config());  // the last run's machine: its marks again
        QVERIFY(window_->numa_view().banner_text().startsWith(QStringLiteral("This machine: ")));
        QVERIFY(marked(window_->numa_view().snapshot()));
        window_->show_tab(QStringLiteral("live"));
        QCOMPARE(window_->tabs().currentIndex(), 0);
    }

    void stopEndsTheRunAndFreesThePinnedMemory() {
        start_and_wait_for_spans();
        window_->stop();
        QVERIFY(!window_->feed().running());
        QCOMPARE(frame().summary.pinned.reserved_bytes.current, 0);
        QVERIFY(frame().summary.metrics.batches > 0);
    }
};

PINSCOPE_UI_SUITE(MainWindowTest)
#include "MainWindowTest.moc"
