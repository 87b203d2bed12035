// SPDX-License-Identifier: GPL-3.0-or-later
// Two recorded runs compared in the window (File > Compare with..., pinscope --compare): both runs'
// spans on their timelines, one time axis that panning or zooming either moves, B shifted when
// lined up at a batch, the figures shown as pinscope-cli compare computes them, the dialog that
// picks the runs, and the window as it was once the comparison is closed.
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QTest>

#include <algorithm>
#include <memory>

#include "engine/compare/RunComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingWriter.h"
#include "engine/record/RunReference.h"
#include "engine/runner/Runner.h"
#include "tests/support/TempDir.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/compare/CompareDialog.h"
#include "ui/compare/ComparedSeriesPlot.h"
#include "ui/compare/ComparisonTable.h"
#include "ui/compare/ComparisonView.h"
#include "ui/compare/SharedTimeAxis.h"
#include "ui/model/SpanStore.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"

using namespace pinscope;

namespace {

// A short emulated run appended to the recording at `path`.
void record_a_run(const std::string& path, bool pin_memory, std::uint32_t workers) {
    auto writer = std::make_shared<RecordingWriter>(path);
    RunnerOptions options;
    options.recorder = writer;
    Runner runner(options);
    LoaderConfig config = test::live_config(pin_memory, workers);
    config.seconds = 1.2;
    runner.start(config);
    runner.wait();
    runner.stop();
    writer->finish(runner.summary());
}

// Where `batch` began in the run, from its start: its earliest span.
TimeNs batch_start(const RunRecord& record, std::uint64_t batch) {
    TimeNs start = std::numeric_limits<TimeNs>::max();
    for (const Span& span : record.spans)
        if (span.batch == batch) start = std::min(start, span.start - record.origin);
    return start;
}

}  // namespace

class ComparisonViewTest : public QObject {
    Q_OBJECT

    test::TempDir dir_;
    std::string path_ = dir_.file("two.pinscope");
    std::unique_ptr<RecordedRun> a_, b_;

    // A window comparing run 1 (A) with run 2 (B), both in.
    std::unique_ptr<ui::MainWindow> compared() {
        auto window = std::make_unique<ui::MainWindow>(test::quiet_window());
        window->resize(1600, 1000);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get())) return nullptr;
        if (!window->open_comparison({path_, 1}, {path_, 2})) return nullptr;
        if (!QTest::qWaitFor([&] { return window->comparison()->runs_in(); }, 20000)) return nullptr;
        return window;
    }

private slots:
    void initTestCase() {
        test::prepare_application();
        record_a_run(path_, true, 4);
        record_a_run(path_, false, 2);
        const RecordingReader reader(path_);
        a_ = std::make_unique<RecordedRun>(reader.load(1));
        b_ = std::make_unique<RecordedRun>(reader.load(2));
        QVERIFY(a_->record.spans.size() > 500);
        QVERIFY(b_->record.spans.size() > 500);
    }

    void theComparisonShowsBothRunsWholeAndClosesBackToTheWindow() {
        const auto window = compared();
        QVERIFY(window);
        ui::ComparisonView& view = *window->comparison();
        QVERIFY(view.isVisible());
        QCOMPARE(view.timeline(RunSide::A).store().size(), a_->record.spans.size());
        QCOMPARE(view.timeline(RunSide::B).store().size(), b_->record.spans.size());
        QVERIFY(view.banner(RunSide::A).text().contains(QStringLiteral("Recorded run 1 of 2")));
        QVERIFY(view.banner(RunSide::B).text().contains(QStringLiteral("Recorded run 2 of 2")));
        // Both whole in view: A from its start, the axis to the end of the longer run.
        const QCPRange shown = view.time_axis().range();
        QCOMPARE(shown.lower, 0.0);
        QVERIFY(shown.upper >= a_->record.summary.metrics.wall_s - 0.05);
        QVERIFY(shown.upper >= b_->record.summary.metrics.wall_s - 0.05);
        // Each plot has a line of each run, named in its legend.
        for (ui::ComparedSeriesPlot* plot : view.plots()) {
            QVERIFY2(plot->line(RunSide::A)->dataCount() > 5, qPrintable(plot->title()));
            QVERIFY2(plot->line(RunSide::B)->dataCount() > 5, qPrintable(plot->title()));
            QCOMPARE(plot->line(RunSide::A)->name(), QStringLiteral("A: run 1 of two.pinscope"));
            QCOMPARE(plot->line(RunSide::B)->name(), QStringLiteral("B: run 2 of two.pinscope"));
            QVERIFY(plot->line(RunSide::A)->pen() != plot->line(RunSide::B)->pen());
        }
        auto* dock = window->findChild<QDockWidget*>(QStringLiteral("configuration"));
        QVERIFY(dock && dock->isHidden());

        QPointer<ui::ComparisonView> gone = &view;
        emit view.closeRequested();  // the Close comparison button
        QVERIFY(!window->comparison());
        QTRY_VERIFY(!gone);
        QVERIFY(window->tabs().isVisible());
        QVERIFY(!dock->isHidden());
    }

    void panningOrZoomingOneTimelineMovesTheOtherAndThePlots() {
        const auto window = compared();
        QVERIFY(window);
        ui::ComparisonView& view = *window->comparison();
        ui::TimelinePlot& a = view.timeline(RunSide::A);
        ui::TimelinePlot& b = view.timeline(RunSide::B);
        a.xAxis->setRange(0.2, 0.4);  // what a drag on A does to its axis
        QCOMPARE(b.xAxis->range().lower, 0.2);
        QCOMPARE(b.xAxis->range().upper, 0.4);
        for (ui::ComparedSeriesPlot* plot : view.plots()) QCOMPARE(plot->xAxis->range().lower, 0.2);

        // A turn of the wheel over B zooms both, about the same point.
        QApplication::processEvents();
        const QRect lanes = b.lanes_rect();
        QVERIFY(test::turn_wheel(&b, lanes.center(), 240) != nullptr);
        const QCPRange zoomed = b.xAxis->range();
        QVERIFY(zoomed.size() < 0.2 - 1e-6);
        QCOMPARE(a.xAxis->range().lower, zoomed.lower);
        QCOMPARE(a.xAxis->range().upper, zoomed.upper);
        QCOMPARE(view.plots().front()->xAxis->range().upper, zoomed.upper);
    }

    void liningUpAtABatchShiftsBByWhereThatBatchBeganInEach() {
        const auto window = compared();
        QVERIFY(window);
        ui::ComparisonView& view = *window->comparison();
        const std::uint64_t batch = 40;
        const double expected = static_cast<double>(batch_start(b_->record, batch) - batch_start(a_->record, batch)) * 1e-9;
        QVERIFY(std::abs(expected) > 1e-6);  // the two runs differ there, or the test shows nothing
        QVERIFY(view.align_at_batch(batch));
        QCOMPARE(view.aligned_batch(), std::optional<std::uint64_t>(batch));
        QVERIFY(std::abs(view.b_shift_s() - expected) < 1e-9);
        const QCPRange a = view.timeline(RunSide::A).xAxis->range();
        const QCPRange b = view.timeline(RunSide::B).xAxis->range();
        QVERIFY(std::abs(b.lower - (a.lower + expected)) < 1e-9);
        QVERIFY(std::abs(b.upper - (a.upper + expected)) < 1e-9);
        // Batch 40 of A is in view, and B's batch 40 at the same place on the screen.
        const double a_at = static_cast<double>(batch_start(a_->record, batch)) * 1e-9;
        const double b_at = static_cast<double>(batch_start(b_->record, batch)) * 1e-9;
        QVERIFY(a.contains(a_at));
        QVERIFY(std::abs(view.timeline(RunSide::A).xAxis->coordToPixel(a_at) - view.timeline(RunSide::B).xAxis->coordToPixel(b_at)) < 1);
        // B's lines move with it; A's stay.
        ui::ComparedSeriesPlot& plot = *view.plots().front();
        QVERIFY(std::abs(plot.time_axis(RunSide::B)->range().lower - (plot.time_axis(RunSide::A)->range().lower + expected)) < 1e-9);
        QVERIFY(view.timeline(RunSide::B).xAxis->label().contains(QStringLiteral("batch 40")));

        // Clicking a span of another batch highlights it in both runs and lines them up there.
        view.timeline(RunSide::A).select_batch(60, a_->record.origin + batch_start(a_->record, 60));
        QCOMPARE(view.timeline(RunSide::B).selected_batch(), std::optional<std::uint64_t>(60));
        QCOMPARE(view.aligned_batch(), std::optional<std::uint64_t>(60));
        QVERIFY(view.align_at_batch(batch));

        QVERIFY(!view.align_at_batch(10'000'000));  // in neither run
        QCOMPARE(view.aligned_batch(), std::optional<std::uint64_t>(batch));
        view.align_at_start();
        QCOMPARE(view.b_shift_s(), 0.0);
        QCOMPARE(view.timeline(RunSide::B).xAxis->range().lower, view.timeline(RunSide::A).xAxis->range().lower);
    }

    void theFiguresShownAreTheOnesPinscopeCliCompareComputes() {
        const auto window = compared();
        QVERIFY(window);
        const ui::ComparisonTable& table = window->comparison()->table();
        const RunComparison cli = compare_runs(a_->record, b_->record);
        QVERIFY(cli.figures.size() > 10);
        for (const FigureComparison& f : cli.figures) {
            const QString name = QString::fromStdString(f.name).trimmed();
            QCOMPARE(table.figure_cell(name, ui::ComparisonTable::A), QString::fromStdString(figure_text(f, f.a)));
            QCOMPARE(table.figure_cell(name, ui::ComparisonTable::B), QString::fromStdString(figure_text(f, f.b)));
            QCOMPARE(table.figure_cell(name, ui::ComparisonTable::Delta), QString::fromStdString(figure_delta_text(f)));
            QCOMPARE(table.figure_cell(name, ui::ComparisonTable::Ratio), QString::fromStdString(figure_ratio_text(f)));
        }
        QVERIFY(table.differences_text().contains(QStringLiteral("pin_memory: on → off")));
        QVERIFY(table.differences_text().contains(QStringLiteral("num_workers: 4 → 2")));
        // Stages: A pins, B stages its pageable copies.
        QVERIFY(!table.stage_cell(QStringLiteral("pin"), 1).isEmpty());
        QCOMPARE(table.stage_cell(QStringLiteral("pin"), 3), QStringLiteral("-"));
        for (const StageComparison& s : cli.stages)
            if (s.stage == Stage::Compute)
                QCOMPARE(table.stage_cell(QStringLiteral("compute"), 5), QString::fromStdString(stage_ratio_text(s)));
    }

    void theDialogOffersTheRunShownAndAnotherOfItsFile() {
        ui::CompareDialog dialog(RunReference{path_, 2}, QString());
        QCOMPARE(dialog.chosen(RunSide::A).path, path_);
        QCOMPARE(dialog.chosen(RunSide::A).run, 2);
        QCOMPARE(dialog.chosen(RunSide::B).run, 1);
        QVERIFY(dialog.problem(RunSide::A).isEmpty());
        QVERIFY(dialog.set_run(RunSide::B, 2));
        QVERIFY(!dialog.set_run(RunSide::B, 9));

        const QString notes = QString::fromStdString(dir_.file("notes.txt"));
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a recording\n");
        file.close();
        QVERIFY(!dialog.set_file(RunSide::B, notes));
        QVERIFY2(dialog.problem(RunSide::B).contains(QStringLiteral("notes.txt")), qPrintable(dialog.problem(RunSide::B)));
        QCOMPARE(dialog.chosen(RunSide::B).run, 0);
    }

    void aRunThatCannotBeReadIsReportedAndNothingChanges() {
        ui::MainWindow window(test::quiet_window());
        QStringList errors;
        connect(&window, &ui::MainWindow::errorReported, [&](const QString& text) { errors << text; });
        QVERIFY(!window.open_comparison({path_, 1}, {path_, 7}));
        QVERIFY(!window.comparison());
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.front().contains(QStringLiteral("7")), qPrintable(errors.front()));
    }
};

PINSCOPE_UI_SUITE(ComparisonViewTest)
#include "ComparisonViewTest.moc"
