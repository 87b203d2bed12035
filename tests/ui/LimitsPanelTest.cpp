// SPDX-License-Identifier: GPL-3.0-or-later
// "What limits this run" as a user reads it: the panel names the bottleneck of a fixed list of
// frames (the window's while running, the whole run's at the end), suggestions appear with their
// predictions labelled as such (and "predicting…" meanwhile, stale ones dropped), Apply asks for
// the change and the measured batches/s of the new segment then stands beside the prediction, a
// recorded run's suggestions have no Apply, the swap warning shows for injected figures; Help >
// Check this machine lists every doctor check with its verdict in words; and in the window, on the
// emulated device, Apply on a real prediction changes the running configuration.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <condition_variable>
#include <mutex>

#include "engine/advice/Advisor.h"
#include "engine/config/ConfigJson.h"
#include "engine/doctor/MachineCheck.h"
#include "engine/text/Units.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/limits/LimitsPanel.h"
#include "ui/limits/MachineCheckDialog.h"
#include "ui/limits/UsageBars.h"
#include "ui/plots/TimeSeriesPlot.h"

using namespace pinscope;

Q_DECLARE_METATYPE(pinscope::ConfigChange)

namespace {

constexpr TimeNs kOrigin = 5'000'000'000;
constexpr TimeNs kStep = 100'000'000;  // a frame every 100 ms of the run

Bottleneck bound_by(Resource resource, const std::string& name, const std::string& range) {
    Bottleneck b;
    b.resource = resource;
    b.utilisation = 0.99;
    b.per_batch_s = 0.0035;
    b.bound_batches_per_s = 285;
    b.saturated = true;
    b.evidence = "Bound by the " + name + ": busy 99 % of " + range + " (3.5 ms each, at most 285 batches/s).";
    b.resources = {
        {.resource = Resource::Workers, .name = "worker 0", .utilisation = 0.41},
        {.resource = Resource::Workers, .name = "workers", .utilisation = 0.40, .per_batch_s = 0.01, .lanes = 4,
         .bound_batches_per_s = 400, .batches = 280},
        {.resource = Resource::PinThread, .name = "pin thread", .utilisation = resource == Resource::PinThread ? 0.99 : 0.5,
         .per_batch_s = 0.0035, .bound_batches_per_s = 285, .batches = 280},
        {.resource = Resource::CopyEngine, .name = "copy engine", .utilisation = resource == Resource::CopyEngine ? 0.99 : 0.3,
         .per_batch_s = 0.001, .bound_batches_per_s = 1000, .batches = 280},
    };
    return b;
}

std::shared_ptr<RunFrame> frame_at(int step, const LoaderConfig& config, bool ended = false) {
    auto f = std::make_shared<RunFrame>();
    f->first = step == 0;
    f->ended = ended;
    f->origin = kOrigin;
    f->time = kOrigin + step * kStep;
    f->summary.config = config;
    f->summary.device.kind = DeviceKind::Emulated;
    f->summary.device.profile = "h200-pcie5";
    f->summary.bottleneck = bound_by(Resource::PinThread, "pin thread", "the run");
    f->window_bottleneck = bound_by(Resource::PinThread, "pin thread", "the last second");
    return f;
}

// Compute spans ending `per_s` a second from `from` until `to` (exclusive of from).
std::vector<Span> computes(TimeNs from, TimeNs to, double per_s) {
    std::vector<Span> spans;
    const auto period = static_cast<TimeNs>(1e9 / per_s);
    std::uint64_t batch = 0;
    for (TimeNs end = from + period; end <= to; end += period) {
        Span s;
        s.stage = Stage::Compute;
        s.lane = Lane{LaneKind::ComputeStream, 0};
        s.start = end - period / 2;
        s.end = end;
        s.batch = batch++;
        spans.push_back(s);
    }
    return spans;
}

Advice worker_advice() {
    return Advice{ConfigChange{"pin_mode", "\"worker\"", "the workers collate straight into pinned blocks: no pin thread"},
                  472, 130};
}

// A predictor that answers at once with `advice`, counting what it was asked.
struct FakePredictions {
    std::vector<Advice> advice{worker_advice()};
    std::atomic<int> asked{0};
    std::atomic<int> resource{0};
    ui::AdvicePredictor::Predict predict() {
        return [this](const RunSummary& basis, const AdviceOptions&) {
            ++asked;
            resource = static_cast<int>(basis.bottleneck.resource);
            return advice;
        };
    }
};

// A predictor that holds until released or cancelled.
struct HeldPredictions {
    std::mutex mutex;
    std::condition_variable released_cv;
    bool released = false;
    std::atomic<bool> saw_cancel{false};
    ui::AdvicePredictor::Predict predict() {
        return [this](const RunSummary&, const AdviceOptions& options) {
            std::unique_lock lock(mutex);
            while (!released) {
                if (options.cancelled && options.cancelled()) {
                    saw_cancel = true;
                    return std::vector<Advice>{};
                }
                released_cv.wait_for(lock, std::chrono::milliseconds(5));
            }
            return std::vector<Advice>{worker_advice()};
        };
    }
    void release() {
        std::lock_guard lock(mutex);
        released = true;
        released_cv.notify_all();
    }
};

// Feeds frames 0..last (inclusive) of a steady run bound by the pin thread.
void feed(ui::LimitsPanel& panel, const LoaderConfig& config, int from, int last) {
    for (int i = from; i <= last; ++i) panel.take(*frame_at(i, config));
}

}  // namespace

class LimitsPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::prepare_application();
        qRegisterMetaType<pinscope::ConfigChange>();
    }

    void namesTheBottleneckOfFixedFramesWindowWhileRunningWholeRunAtTheEnd() {
        FakePredictions fake;
        ui::LimitsPanel panel(fake.predict());
        QVERIFY(panel.bottleneck_text().contains(QStringLiteral("Start a run")));
        const LoaderConfig config = test::live_config();
        feed(panel, config, 0, 5);
        QCOMPARE(panel.bottleneck_text(), QStringLiteral("Bound by the pin thread: busy 99 % of the last second (3.5 ms each, "
                                                         "at most 285 batches/s)."));
        QVERIFY(panel.scope_text().startsWith(QStringLiteral("Running")));
        QCOMPARE(panel.usage().row_count(), 4);
        QCOMPARE(panel.usage().row_text(2), QStringLiteral("pin thread 99 % · at most 285 batches/s · bound"));
        QVERIFY(!panel.usage().row_text(0).contains(QStringLiteral("bound")));  // one worker's row
        QVERIFY(!panel.usage().row_text(3).contains(QStringLiteral("bound")));

        auto last = frame_at(6, config, true);
        last->summary.bottleneck = bound_by(Resource::CopyEngine, "copy engine", "the run");
        panel.take(*last);
        QVERIFY(panel.bottleneck_text().startsWith(QStringLiteral("Bound by the copy engine: busy 99 % of the run")));
        QVERIFY(panel.scope_text().contains(QStringLiteral("whole run")));
        QCOMPARE(panel.usage().row_text(3), QStringLiteral("copy engine 99 % · at most 1000 batches/s · bound"));
    }

    void suggestionsAppearWithPredictionsLabelledAndApplyAsksForTheChange() {
        FakePredictions fake;
        ui::LimitsPanel panel(fake.predict());
        const LoaderConfig config = test::live_config();
        feed(panel, config, 0, 8);
        QCOMPARE(fake.asked.load(), 0);  // the window's bottleneck has not settled yet
        QCOMPARE(panel.suggestion_count(), 0);
        feed(panel, config, 9, 30);
        QTRY_COMPARE_WITH_TIMEOUT(panel.suggestion_count(), 1, 5000);
        QCOMPARE(fake.asked.load(), 1);
        QCOMPARE(fake.resource.load(), static_cast<int>(Resource::PinThread));  // predicted for the window's bottleneck
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("pin_mode worker")));
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("predicted 472 batches/s (as run: 130 predicted)")));
        QVERIFY2(panel.status_text().startsWith(QStringLiteral("For the pin thread. Predictions, not measurements")),
                 qPrintable(panel.status_text()));
        QVERIFY(panel.status_text().contains(QStringLiteral("emulated")));
        feed(panel, config, 31, 60);
        QCOMPARE(fake.asked.load(), 1);  // the same configuration and bottleneck: not predicted again

        QPushButton* apply = panel.apply_button(0);
        QVERIFY(apply);
        QCOMPARE(apply->text(), QStringLiteral("Apply"));
        QSignalSpy asked(&panel, &ui::LimitsPanel::applyRequested);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        const auto change = asked.at(0).at(0).value<ConfigChange>();
        QCOMPARE(change.key, std::string("pin_mode"));
        QCOMPARE(change.value, std::string("\"worker\""));
        QVERIFY(panel.applied_text().contains(QStringLiteral("Applied pin_mode worker")));
        QVERIFY(panel.applied_text().contains(QStringLiteral("waiting for the change to take effect")));
    }

    void measuredStandsBesidePredictedAfterApply() {
        FakePredictions fake;
        ui::LimitsPanel panel(fake.predict());
        LoaderConfig config = test::live_config();
        feed(panel, config, 0, 30);
        QTRY_COMPARE_WITH_TIMEOUT(panel.suggestion_count(), 1, 5000);
        QTest::mouseClick(panel.apply_button(0), Qt::LeftButton);

        // The engine reconfigures at 3.2 s; the new segment runs at 455 batches/s.
        config.pin_mode = PinMode::Worker;
        const TimeNs change_at = kOrigin + 32 * kStep;
        const std::vector<Span> spans = computes(change_at, kOrigin + 90 * kStep, 455);
        for (int i = 31; i <= 82; ++i) {
            auto f = frame_at(i, config);
            if (i == 32) f->markers.push_back(Marker{change_at, MarkerKind::Reconfigured, "reconfigured: pin_mode pool -> worker"});
            for (const Span& s : spans)
                if (s.end > f->time - kStep && s.end <= f->time) f->spans.push_back(s);
            panel.take(*f);
            if (i == 40) QVERIFY(panel.applied_text().contains(QStringLiteral("measuring")));  // within the warm-up
        }
        // 5 s after the change: 4 s measured after the first second.
        QVERIFY2(panel.applied_text().contains(QStringLiteral("predicted 472 batches/s, measured 455 after 5 s")),
                 qPrintable(panel.applied_text()));
        // The new configuration is predicted afresh once it settled.
        QTRY_COMPARE_WITH_TIMEOUT(fake.asked.load(), 2, 5000);
    }

    void aBottleneckMovingBetweenTwoResourcesIsPredictedOnceForEach() {
        std::atomic<int> asked{0};
        ui::LimitsPanel panel([&](const RunSummary& basis, const AdviceOptions&) {
            ++asked;
            if (basis.bottleneck.resource == Resource::PinThread) return std::vector<Advice>{worker_advice()};
            return std::vector<Advice>{Advice{ConfigChange{"prefetch_factor", "4", "more batches in flight"}, 300, 250}};
        });
        const LoaderConfig config = test::live_config();
        int step = 0;
        const auto phase = [&](Resource resource, const std::string& name, int frames) {
            for (int i = 0; i < frames; ++i, ++step) {
                auto f = frame_at(step, config);
                f->window_bottleneck = bound_by(resource, name, "the last second");
                panel.take(*f);
                QCoreApplication::processEvents();  // the predictions' answers come back queued
                QTest::qWait(5);
            }
        };
        phase(Resource::PinThread, "pin thread", 25);
        QTRY_COMPARE_WITH_TIMEOUT(panel.suggestion_count(), 1, 5000);
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("pin_mode worker")));
        phase(Resource::BatchCredits, "batch credits", 25);
        QTRY_VERIFY_WITH_TIMEOUT(panel.suggestion_count() == 1 &&
                                     panel.suggestion_text(0).contains(QStringLiteral("prefetch_factor 4")), 5000);
        QVERIFY(panel.status_text().startsWith(QStringLiteral("For the batch credits.")));
        phase(Resource::PinThread, "pin thread", 25);
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("pin_mode worker")));  // from those made before
        phase(Resource::BatchCredits, "batch credits", 25);
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("prefetch_factor 4")));
        QCOMPARE(asked.load(), 2);  // each bottleneck predicted once, none cancelled by the other
    }

    void predictingIsShownAStaleResultIsDroppedAndTheWholeRunStillPredicted() {
        HeldPredictions held;
        ui::LimitsPanel panel(held.predict());
        LoaderConfig config = test::live_config();
        feed(panel, config, 0, 30);
        QVERIFY(panel.predictor().busy());
        QVERIFY(panel.status_text().startsWith(QStringLiteral("predicting")));
        config.num_workers = 8;  // the configuration changes while predicting
        auto changed = frame_at(31, config);
        changed->markers.push_back(Marker{changed->time, MarkerKind::Reconfigured, "reconfigured: num_workers 4 -> 8"});
        panel.take(*changed);
        // The run ends before the cancelled prediction has come back: no frame follows, and the
        // whole run's bottleneck is still predicted once the predictor is free.
        panel.take(*frame_at(32, config, true));
        QTRY_VERIFY_WITH_TIMEOUT(held.saw_cancel.load(), 5000);
        QCOMPARE(panel.suggestion_count(), 0);  // the cancelled prediction's answer is not shown
        held.release();
        QTRY_COMPARE_WITH_TIMEOUT(panel.suggestion_count(), 1, 5000);
        QCOMPARE(panel.apply_button(0)->text(), QStringLiteral("Apply and start"));
    }

    void recordedRunShowsItsSuggestionsWithoutApply() {
        FakePredictions fake;
        ui::LimitsPanel panel(fake.predict());
        const auto from = std::make_shared<RecordedFrom>();
        for (int i = 0; i <= 3; ++i) {
            auto f = frame_at(i, test::live_config(), i == 3);
            f->recorded = from;
            f->summary.advice = {worker_advice()};
            panel.take(*f);
        }
        QCOMPARE(panel.suggestion_count(), 1);
        QVERIFY(panel.suggestion_text(0).contains(QStringLiteral("predicted 472 batches/s")));
        QVERIFY(panel.apply_button(0) == nullptr);
        QVERIFY(panel.status_text().contains(QStringLiteral("as recorded")));
        QVERIFY(panel.scope_text().startsWith(QStringLiteral("Recorded run")));
        QCOMPARE(fake.asked.load(), 0);  // nothing predicted again for a recording
        QSignalSpy again(&panel, &ui::LimitsPanel::runAgainRequested);
        auto* button = panel.findChild<QPushButton*>();
        QVERIFY(button);
        QCOMPARE(button->text(), QStringLiteral("Run this again here"));
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(again.count(), 1);
    }

    void swapWarningShowsForInjectedFigures() {
        FakePredictions fake;
        ui::LimitsPanel panel(fake.predict());
        const LoaderConfig config = test::live_config();
        MemoryState short_of;
        short_of.known = true;
        short_of.total_bytes = 16 * kGiB;
        short_of.available_bytes = 200 * kMiB;
        short_of.swap_total_bytes = 2 * kGiB;
        short_of.swap_free_bytes = 2 * kGiB;
        auto f = frame_at(0, config);
        f->summary.memory = memory_pressure(short_of, short_of, run_memory(config, 4 * kGiB, 0, 0));
        QVERIFY(f->summary.memory.would_swap);
        panel.take(*f);
        QVERIFY(panel.memory_warns());
        QVERIFY2(panel.memory_text().contains(QStringLiteral("Warning: memory.")), qPrintable(panel.memory_text()));
        QVERIFY(panel.memory_text().contains(QStringLiteral("pinning may push this machine into swap")));
        QVERIFY(panel.memory_text().contains(QStringLiteral("200 MiB is available")));

        MemoryState plenty = short_of;
        plenty.available_bytes = 12 * kGiB;
        auto g = frame_at(1, config, true);
        g->summary.memory = memory_pressure(plenty, plenty, run_memory(config, 4 * kGiB, 0, 0));
        panel.take(*g);
        QVERIFY(!panel.memory_warns());
        QVERIFY(panel.memory_text().startsWith(QStringLiteral("Memory: 12 GiB available")));
    }

    void checkThisMachineListsEveryDoctorCheckWithItsVerdictInWords() {
        const LoaderConfig config = test::live_config();
        const CudaDeviceList cuda{{}, "no CUDA in this test"};
        ui::MachineCheckDialog dialog(config, cuda);
        const std::vector<CheckLine> expected = check_machine(config, "/", cuda);
        QCOMPARE(dialog.lines().size(), expected.size());
        const QString html = dialog.shown_html();
        const QString text = dialog.plain_text();
        for (const CheckLine& line : expected) {
            QVERIFY2(html.contains(QString::fromStdString(line.name).toHtmlEscaped()), line.name.c_str());
            QVERIFY2(html.contains(QString::fromLatin1(to_string(line.verdict).data()).toUpper()), line.name.c_str());
        }
        QCOMPARE(text, QString::fromStdString(check_lines_text(dialog.lines())));  // the doctor's own text
        for (const char* name : {"memlock", "cgroup memory", "swap", "memory", "pinned budget", "container", "huge pages",
                                 "pcie link", "driver", "numa", "cpu governor"})
            QVERIFY2(text.contains(QString::fromLatin1(name)), name);
        auto* copy = [&] {
            for (auto* b : dialog.findChildren<QPushButton*>())
                if (b->text() == QStringLiteral("Copy")) return b;
            return static_cast<QPushButton*>(nullptr);
        }();
        QVERIFY(copy);
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), text);
    }

    // The whole path in the window, with real predictions on the emulated device.
    void windowAppliesARealPredictionToTheRunningEngine() {
        ui::MainWindow window(test::quiet_window());
        // Without workers and with 300 us of CPU work a sample, the consumer bounds the run and
        // four workers are predicted to gain several times over: a suggestion however loaded the
        // machine running the tests is (the default's pin_mode worker gains 1.2x, which a busy
        // 2-core machine can hide).
        LoaderConfig config = test::live_config(true, 0);
        config.cpu_us_per_sample = 300;
        window.set_config(config);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.start());
        ui::LimitsPanel& panel = window.limits();
        QTRY_VERIFY_WITH_TIMEOUT(panel.bottleneck_text().startsWith(QStringLiteral("Bound by")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.predictor().busy() || panel.suggestion_count() > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.suggestion_count() > 0 || panel.status_text().startsWith(QStringLiteral("No change")),
                                 60000);
        QVERIFY2(panel.suggestion_count() > 0, qPrintable(panel.status_text()));
        QVERIFY2(panel.suggestion_text(0).contains(QStringLiteral("num_workers 4")), qPrintable(panel.suggestion_text(0)));
        const LoaderConfig before = window.controls().applied();
        QTest::mouseClick(panel.apply_button(0), Qt::LeftButton);
        QVERIFY(window.controls().applied() != before);
        QCOMPARE(window.controls().applied().num_workers, 4u);
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame()->summary.config.num_workers == 4, 10000);  // the engine runs it
        QVERIFY(window.feed().running());
        QTRY_VERIFY_WITH_TIMEOUT(panel.applied_text().contains(QStringLiteral("measured")) &&
                                     !panel.applied_text().contains(QStringLiteral("measuring")),
                                 15000);
        window.stop();
    }

    void helpMenuOpensCheckThisMachine() {
        ui::MainWindow window(test::quiet_window());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction* check = nullptr;
        for (QAction* a : window.menuBar()->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Check this machine…")) check = a;
        QVERIFY(check);
        check->trigger();
        QTRY_VERIFY(window.findChild<ui::MachineCheckDialog*>() != nullptr);
        auto* dialog = window.findChild<ui::MachineCheckDialog*>();
        QVERIFY(!dialog->lines().empty());
        dialog->close();
    }

    void footprintPlotCarriesAvailableMemoryAndSwap() {
        ui::MainWindow window(test::quiet_window());
        auto f = frame_at(0, test::live_config());
        f->summary.memory.memory = MemoryState{true, 16 * kGiB, 8 * kGiB, 4 * kGiB, 3 * kGiB};
        f->counters.push_back(CounterSample{f->time, 8.0 * kGiB, Counter::MemAvailableBytes});
        f->counters.push_back(CounterSample{f->time, 1.0 * kGiB, Counter::SwapUsedBytes});
        window.footprint_plot().take(*f);
        QStringList names;
        for (int i = 0; i < window.footprint_plot().graphCount(); ++i) {
            names << window.footprint_plot().graph(i)->name();
            if (window.footprint_plot().graph(i)->name().startsWith(QStringLiteral("available")) ||
                window.footprint_plot().graph(i)->name().startsWith(QStringLiteral("swap")))
                QCOMPARE(window.footprint_plot().graph(i)->dataCount(), 1);
        }
        QVERIFY2(names.filter(QStringLiteral("available")).size() == 1, qPrintable(names.join(',')));
        QVERIFY2(names.filter(QStringLiteral("swap")).size() == 1, qPrintable(names.join(',')));
        // The machine has swap: its line is in the legend (without swap it is left out).
        QVERIFY(window.footprint_plot().legend->hasItemWithPlottable(
            window.footprint_plot().graph(static_cast<int>(names.indexOf(QStringLiteral("swap in use"))))));
    }
};

PINSCOPE_UI_SUITE(LimitsPanelTest)
#include "LimitsPanelTest.moc"
