// SPDX-License-Identifier: GPL-3.0-or-later
// Segments and run files in the window: a run changed twice lists three segments, and choosing
// one brings its stretch into view; Stop then Start keeps the earlier run, which reopens as
// recorded; Save run as writes the run shown into a recording; the recording switch streams live
// runs into the chosen file and refuses a file that is not a recording, leaving it as it was.
#include <QFile>
#include <QStatusBar>
#include <QTest>

#include "engine/record/RecordingReader.h"
#include "tests/support/TempDir.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/record/RunKeeper.h"
#include "ui/segments/SegmentList.h"
#include "ui/timeline/TimelinePlot.h"

using namespace pinscope;

namespace {

std::string read_text(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.readAll().toStdString();
}

}  // namespace

class SegmentsWindowTest : public QObject {
    Q_OBJECT

    test::TempDir dir_;

    ui::WindowOptions options() {
        ui::WindowOptions o = test::quiet_window();
        o.session_folder = QString::fromStdString(dir_.file(""));
        return o;
    }

    static std::uint64_t batches(ui::MainWindow& window) {
        const auto& frame = window.feed().last_frame();
        return frame ? frame->summary.metrics.batches : 0;
    }

    // Runs until the window has seen `more` batches more than now.
    static bool computes_more(ui::MainWindow& window, std::uint64_t more) {
        const std::uint64_t from = batches(window);
        return QTest::qWaitFor([&] { return batches(window) >= from + more; }, 20000);
    }

    // Starts the default live configuration and changes it twice while it runs, then stops.
    static bool run_changed_twice(ui::MainWindow& window) {
        LoaderConfig config = test::live_config(true, 4);
        window.set_config(config);
        if (!window.start() || !computes_more(window, 10)) return false;
        config.pin_memory = false;
        window.set_config(config);
        if (!QTest::qWaitFor([&] { return window.segments().count() == 2; }, 20000) || !computes_more(window, 10)) return false;
        config.num_workers = 2;
        window.set_config(config);
        if (!QTest::qWaitFor([&] { return window.segments().count() == 3; }, 20000) || !computes_more(window, 10)) return false;
        window.stop();
        return true;
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void aRunChangedTwiceListsThreeSegmentsAndOneBringsItsStretchIntoView() {
        ui::MainWindow window(options());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(run_changed_twice(window));
        QCOMPARE(window.segments().count(), 3);
        const std::vector<RunSegment>& segments = window.feed().last_frame()->summary.segments;
        QCOMPARE(segments.size(), std::size_t{3});
        QTreeWidgetItem* second = window.segments().topLevelItem(1);
        QCOMPARE(second->text(2), QStringLiteral("pin_memory: on -> off"));
        QCOMPARE(window.segments().topLevelItem(2)->text(2), QStringLiteral("num_workers: 4 -> 2"));
        QCOMPARE(second->text(3), QString::number(segments[1].metrics.batches_per_s, 'f', 1));

        window.segments().choose(1);
        const TimeNs origin = window.feed().last_frame()->origin;
        QVERIFY(window.timeline().frozen());
        const QCPRange range = window.timeline().xAxis->range();
        QCOMPARE(range.lower, segments[1].begin_s(origin));
        QCOMPARE(range.upper, segments[1].end_s(origin));
    }

    void stopThenStartKeepsTheEarlierRunWhichReopensAsRecorded() {
        ui::MainWindow window(options());
        QVERIFY(run_changed_twice(window));
        QCOMPARE(window.keeper().kept().size(), std::size_t{1});
        const std::uint64_t first_batches = batches(window);
        QVERIFY(window.start());
        QVERIFY(computes_more(window, 5));
        window.stop();
        QCOMPARE(window.keeper().kept().size(), std::size_t{2});
        QVERIFY(window.keeper().kept()[0].in_session_file);

        QVERIFY2(window.open_kept_run(0), qPrintable(window.statusBar()->currentMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && window.feed().last_frame()->ended, 10000);
        const RunFrame& shown = *window.feed().last_frame();
        QVERIFY(shown.recorded != nullptr);
        QCOMPARE(shown.summary.metrics.batches, first_batches);
        QCOMPARE(window.segments().count(), 3);
    }

    void saveRunAsWritesTheRunShownIntoARecordingAndRefusesAnythingElse() {
        ui::MainWindow window(options());
        QStringList errors;
        connect(&window, &ui::MainWindow::errorReported, this, [&](const QString& text) { errors << text; });
        QVERIFY(!window.save_run_as(QString::fromStdString(dir_.file("nothing.pinscope"))));  // no run yet
        QCOMPARE(errors.size(), 1);
        QVERIFY(run_changed_twice(window));
        const std::string saved = dir_.file("saved.pinscope");
        QVERIFY(window.save_run_as(QString::fromStdString(saved)));
        const RecordingReader reader(saved);
        const RunSummary summary = reader.summary(1);
        QCOMPARE(summary.segments.size(), std::size_t{3});
        QCOMPARE(summary.metrics.batches, batches(window));

        const std::string notes = dir_.file("notes.txt");
        {
            QFile file(QString::fromStdString(notes));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("mine\n");
        }
        QVERIFY(!window.save_run_as(QString::fromStdString(notes)));
        QCOMPARE(errors.size(), 2);
        QCOMPARE(read_text(notes), std::string("mine\n"));

        // A recorded run shown is saved too: appended to a recording.
        QVERIFY2(window.open_recording(QString::fromStdString(saved)), qPrintable(errors.join(QStringLiteral("; "))));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && window.feed().last_frame()->ended, 10000);
        const std::string again = dir_.file("again.pinscope");
        QVERIFY(window.save_run_as(QString::fromStdString(again)));
        QCOMPARE(RecordingReader(again).summary(1).segments.size(), std::size_t{3});
    }

    void theRecordingSwitchStreamsLiveRunsIntoTheChosenFileAndRefusesAnotherFile() {
        ui::MainWindow window(options());
        QStringList errors;
        connect(&window, &ui::MainWindow::errorReported, this, [&](const QString& text) { errors << text; });
        const std::string notes = dir_.file("notes2.txt");
        {
            QFile file(QString::fromStdString(notes));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("mine\n");
        }
        QVERIFY(!window.record_runs_to(QString::fromStdString(notes)));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(read_text(notes), std::string("mine\n"));
        QVERIFY(!window.keeper().recording_path());

        const std::string runs = dir_.file("runs.pinscope");
        QVERIFY(window.record_runs_to(QString::fromStdString(runs)));
        QVERIFY(window.start());
        QVERIFY(computes_more(window, 5));
        // While it runs, the file already holds it.
        QCOMPARE(RecordingReader(runs).runs().size(), std::size_t{1});
        window.stop();
        QVERIFY(window.start());
        QVERIFY(computes_more(window, 5));
        window.stop();
        const RecordingReader reader(runs);
        QCOMPARE(reader.runs().size(), std::size_t{2});
        QVERIFY(reader.runs()[1].finished);
        QCOMPARE(reader.summary(2).metrics.batches, batches(window));
        QVERIFY(!window.keeper().kept()[0].in_session_file);

        window.stop_recording_runs();
        QVERIFY(window.start());
        QVERIFY(computes_more(window, 5));
        window.stop();
        QCOMPARE(RecordingReader(runs).runs().size(), std::size_t{2});  // off: the next went to the session's file
        QVERIFY(window.keeper().kept()[2].in_session_file);
    }
};

PINSCOPE_UI_SUITE(SegmentsWindowTest)
#include "SegmentsWindowTest.moc"
