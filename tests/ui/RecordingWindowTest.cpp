// SPDX-License-Identifier: GPL-3.0-or-later
// A recorded run in the window: shown through the same views as a live one, the whole run in view,
// the banner saying where and when it was recorded, the controls read-only until "Run this again
// here"; a file that is not a recording is reported and changes nothing shown.
#include <QFile>
#include <QPushButton>
#include <QTest>

#include <memory>

#include "engine/record/RecordingWriter.h"
#include "engine/runner/Runner.h"
#include "tests/support/TempDir.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/controls/ControlPanel.h"
#include "ui/model/SpanStore.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MetricsPanel.h"

using namespace pinscope;

namespace {

// A short emulated run on 4 workers, recorded into `path`; returns its summary.
RunSummary record_a_run(const std::string& path) {
    auto writer = std::make_shared<RecordingWriter>(path);
    RunnerOptions options;
    options.recorder = writer;
    Runner runner(options);
    LoaderConfig config = test::live_config(true, 4);
    config.seconds = 1.5;
    runner.start(config);
    runner.wait();
    runner.stop();
    const RunSummary summary = runner.summary();
    writer->finish(summary);
    return summary;
}

}  // namespace

class RecordingWindowTest : public QObject {
    Q_OBJECT

    test::TempDir dir_;
    std::string path_ = dir_.file("run.pinscope");
    RunSummary recorded_;

private slots:
    void initTestCase() {
        test::prepare_application();
        recorded_ = record_a_run(path_);
        QVERIFY(recorded_.metrics.batches > 50);
    }

    void aRecordingIsShownThroughTheSameViewsAsALiveRun() {
        ui::MainWindow window(test::quiet_window());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.open_recording(QString::fromStdString(path_)));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && window.feed().last_frame()->ended, 10000);
        QVERIFY(!window.feed().running());

        const RunFrame& last = *window.feed().last_frame();
        QCOMPARE(last.summary.metrics.batches, recorded_.metrics.batches);
        QVERIFY(window.timeline().store().size() > 500);
        QVERIFY(window.banner().is_recorded());
        QVERIFY2(window.banner().text().contains(QStringLiteral("Recorded run 1 of 1")), qPrintable(window.banner().text()));
        QVERIFY2(window.banner().text().contains(QStringLiteral("run.pinscope")), qPrintable(window.banner().text()));
        QVERIFY(!window.controls().isEnabled());  // the recorded configuration, read-only
        QCOMPARE(window.controls().applied().num_workers, 4u);
        // Its numbers are the recorded run's own.
        QVERIFY2(window.metrics().detail_of(QStringLiteral("batches/s"))
                     .contains(QString::number(recorded_.metrics.batches_per_s, 'f', recorded_.metrics.batches_per_s >= 100 ? 0 : 1)),
                 qPrintable(window.metrics().detail_of(QStringLiteral("batches/s"))));
        QVERIFY(window.footprint_plot().point_count() > 20);  // as many points as live, not one per chunk
    }

    void runThisAgainHereStartsALiveRunOfTheRecordedConfiguration() {
        ui::MainWindow window(test::quiet_window());
        QVERIFY(window.open_recording(QString::fromStdString(path_)));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && window.feed().last_frame()->ended, 10000);
        QPushButton* again = nullptr;
        for (QPushButton* button : window.findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("Run this again here")) again = button;
        QVERIFY(again != nullptr);
        QVERIFY(!again->isHidden());
        again->click();
        QVERIFY(window.feed().running());
        QVERIFY(window.controls().isEnabled());
        QVERIFY(again->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && !window.feed().last_frame()->first, 5000);
        QVERIFY(window.feed().last_frame()->recorded == nullptr);  // live now
        QCOMPARE(window.feed().last_frame()->summary.config.num_workers, 4u);
        window.stop();
    }

    void aFileThatIsNotARecordingIsReportedAndChangesNothingShown() {
        ui::MainWindow window(test::quiet_window());
        QStringList errors;
        connect(&window, &ui::MainWindow::errorReported, this, [&](const QString& text) { errors << text; });
        const std::string text_file = dir_.file("notes.txt");
        {
            QFile file(QString::fromStdString(text_file));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("not a database\n");
        }
        QVERIFY(!window.open_recording(QString::fromStdString(text_file)));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.front().contains(QStringLiteral("notes.txt")), qPrintable(errors.front()));
        QVERIFY(!window.feed().has_run());
        QVERIFY(!window.open_recording(QString::fromStdString(path_), 7));  // no run 7
        QCOMPARE(errors.size(), 2);
        QVERIFY(!window.feed().has_run());
    }
};

PINSCOPE_UI_SUITE(RecordingWindowTest)
#include "RecordingWindowTest.moc"
