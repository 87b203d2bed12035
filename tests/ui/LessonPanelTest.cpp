// SPDX-License-Identifier: GPL-3.0-or-later
// The Lessons panel in the window, as a teacher uses it: choose a lesson, ask, run a step (its run
// kept in the lesson's recording), reveal the answer with the run's numbers and each claim, step
// forward and back, the step's lanes marked and plots tinted; presenter mode's larger type,
// colour-blind-safe stage colours and only the step's lanes, plots and numbers, and back.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <memory>

#include "engine/record/RecordingReader.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/compare/ComparisonView.h"
#include "ui/model/SpanStore.h"
#include "ui/lessons/LessonNumbers.h"
#include "ui/lessons/LessonPanel.h"
#include "ui/lessons/PresenterStyle.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MetricsPanel.h"

using namespace pinscope;

namespace {

// Two short steps; the second's claims are made to hold and to fail, so both show.
constexpr const char* kLesson = R"({"format": 1, "title": "A quick lesson", "learn": "What the panel does.",
  "base": {"device": "emulated", "num_workers": 2, "pin_memory": true, "gpu_us_per_batch": 10000},
  "steps": [
    {"title": "pinned", "seconds": 1, "question": "What bounds batches/s?", "choices": ["The GPU", "The workers"],
     "answer": 1, "reveal": "{batches_per_s}: {bottleneck}",
     "highlight": {"lanes": ["compute stream"], "plots": ["throughput"], "numbers": ["batches_per_s", "gpu_busy"]},
     "claims": [{"figure": "batches_per_s", "at_least": 1}]},
    {"title": "pageable", "set": {"pin_memory": false}, "seconds": 1, "question": "And now?", "choices": ["Same", "Slower"],
     "answer": 1, "reveal": "{batches_per_s} against {batches_per_s@1}",
     "absent": "Said when a claim does not hold.",
     "claims": [{"figure": "batches_per_s", "against_step": 1, "at_least": 0.1}, {"figure": "gpu_busy", "at_least": 2}]}
  ]})";

QStringList lane_labels(ui::TimelinePlot& timeline) {
    QStringList labels;
    auto ticker = timeline.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (ticker)
        for (const QString& label : ticker->ticks()) labels << label.trimmed();
    return labels;
}

}  // namespace

class LessonPanelTest : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<ui::MainWindow> window_;
    QString lesson_file_;

    ui::LessonPanel& panel() { return window_->lesson_panel(); }
    void run_step() {
        panel().run();
        QTRY_VERIFY_WITH_TIMEOUT(panel().session()->phase() == LessonSession::Phase::Revealed, 20000);
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        lesson_file_ = dir_->filePath(QStringLiteral("quick.json"));
        std::ofstream(lesson_file_.toStdString()) << kLesson;
        window_ = std::make_unique<ui::MainWindow>(test::quiet_window());
        window_->set_lesson_recording(dir_->filePath(QStringLiteral("lesson.pinscope")));
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() {
        window_.reset();
        dir_.reset();
    }

    void aBadLessonFileIsRefusedNamingStepAndField() {
        const QString bad = dir_->filePath(QStringLiteral("bad.json"));
        std::string text = kLesson;
        text.replace(text.find("\"answer\": 1"), 11, "\"answer\": 5");
        std::ofstream(bad.toStdString()) << text;
        QString error;
        connect(window_.get(), &ui::MainWindow::errorReported, this, [&](const QString& e) { error = e; });
        QVERIFY(!window_->open_lesson(bad));
        QVERIFY2(error.contains(QStringLiteral("bad.json, step 1, answer")), qPrintable(error));
        QVERIFY(!panel().has_lesson());
    }

    void askRunRevealAndStepKeepingEachRun() {
        QVERIFY(window_->open_lesson(lesson_file_));
        QVERIFY(panel().question_text().contains(QStringLiteral("What bounds batches/s?")));
        QVERIFY2(!panel().answer_shown(), "asked, not answered");
        run_step();
        QVERIFY(panel().answer_shown());
        const QString answer = panel().answer_text();
        QVERIFY2(answer.contains(QStringLiteral("Answer: 1. The GPU")), qPrintable(answer));
        QVERIFY2(QRegularExpression(QStringLiteral("[0-9]+ batches/s: Bound by")).match(answer).hasMatch(), qPrintable(answer));
        QVERIFY2(answer.contains(QStringLiteral("holds</b> batches/s is at least 1.0 batches/s")), qPrintable(answer));
        QVERIFY(lane_labels(window_->timeline()).contains(QStringLiteral("\u25B6 compute stream")));
        QVERIFY(!lane_labels(window_->timeline()).contains(QStringLiteral("\u25B6 worker 0")));

        panel().next();
        QVERIFY(!panel().answer_shown());
        QVERIFY(panel().question_text().contains(QStringLiteral("And now?")));
        run_step();
        const QString second = panel().answer_text();
        QVERIFY2(second.contains(QStringLiteral("not shown</b> GPU busy is at least 200 %")), qPrintable(second));
        QVERIFY2(second.contains(QStringLiteral("This run did not show it")) && second.contains(QStringLiteral("Said when a claim does not hold.")),
                 qPrintable(second));
        QVERIFY2(QRegularExpression(QStringLiteral("[0-9]+ batches/s against [0-9]+ batches/s")).match(second).hasMatch(), qPrintable(second));

        panel().back();
        QCOMPARE(panel().session()->step(), std::size_t{0});
        QVERIFY(panel().session()->has_result(0));
        panel().reveal();
        QVERIFY(panel().answer_text().contains(QStringLiteral("Answer: 1. The GPU")));

        // Both runs are kept, one run each, in the lesson's recording.
        const RecordingReader reader(window_->lesson_recording().toStdString());
        QCOMPARE(reader.runs().size(), std::size_t{2});
        QCOMPARE(panel().session()->results()[1].recorded_run, reader.runs().back().id);
        // The rest of the window stays usable: a plain run starts as ever.
        QVERIFY(window_->start());
        window_->stop();
    }

    void compareWithAnEarlierStepOpensBothKeptRunsSideBySide() {
        QVERIFY(window_->open_lesson(lesson_file_));
        auto* compare = panel().findChild<QPushButton*>(QStringLiteral("compareSteps"));
        auto* other = panel().findChild<QComboBox*>(QStringLiteral("compareStep"));
        QVERIFY(compare && other);
        run_step();
        QVERIFY2(!compare->isEnabled(), "no other step has a run yet");
        panel().next();
        run_step();
        QVERIFY(compare->isEnabled());
        QCOMPARE(other->count(), 1);
        QCOMPARE(other->itemText(0), QStringLiteral("step 1: pinned"));

        QTest::mouseClick(compare, Qt::LeftButton);
        ui::ComparisonView* view = window_->comparison();
        QVERIFY2(view, "the comparison opened");
        QTRY_VERIFY_WITH_TIMEOUT(view->runs_in(), 20000);
        // A is the chosen step's run, B this step's, both from the lesson's recording.
        const auto& results = panel().session()->results();
        QVERIFY2(view->banner(RunSide::A).text().contains(QStringLiteral("Recorded run %1 of 2").arg(results[0].recorded_run)),
                 qPrintable(view->banner(RunSide::A).text()));
        QVERIFY2(view->banner(RunSide::B).text().contains(QStringLiteral("Recorded run %1 of 2").arg(results[1].recorded_run)),
                 qPrintable(view->banner(RunSide::B).text()));
        const RecordingReader reader(window_->lesson_recording().toStdString());
        QCOMPARE(view->timeline(RunSide::B).store().size(), reader.load(results[1].recorded_run).record.spans.size());
        emit view->closeRequested();
        QVERIFY(!window_->comparison());
    }

    void presenterModeShowsOnlyTheStepsViewsLargerAndBack() {
        QVERIFY(window_->open_lesson(lesson_file_));
        run_step();
        const int normal = window_->timeline().yAxis->tickLabelFont().pointSize();
        const QColor compute = ui::stage_color(Stage::Compute);
        window_->set_presenter(true);
        QVERIFY(window_->presenter());
        QCOMPARE(ui::font_scale(), ui::kPresenterFontScale);
        QVERIFY(window_->timeline().yAxis->tickLabelFont().pointSize() >= normal * 1.6);
        QVERIFY(ui::stage_color(Stage::Compute) != compute);
        QCOMPARE(lane_labels(window_->timeline()), QStringList{QStringLiteral("\u25B6 compute stream")});
        QVERIFY(window_->lesson_numbers().isVisible());
        QVERIFY(!window_->metrics().isVisible());
        QVERIFY2(window_->lesson_numbers().value_of("batches_per_s").contains(QStringLiteral("batches/s")),
                 qPrintable(window_->lesson_numbers().value_of("batches_per_s")));
        QVERIFY2(!window_->footprint_plot().isVisible(), "not the step's plot");
        if (const char* out = std::getenv("PINSCOPE_LESSON_SHOTS")) {
            QTest::qWait(300);  // the new sizes laid out, for the picture only
            window_->grab().toImage().save(QString::fromLocal8Bit(out) + QStringLiteral("/presenter.png"));
        }

        window_->set_presenter(false);
        QCOMPARE(ui::font_scale(), 1.0);
        QCOMPARE(window_->timeline().yAxis->tickLabelFont().pointSize(), normal);
        QCOMPARE(ui::stage_color(Stage::Compute), compute);
        QVERIFY(window_->metrics().isVisible());
        QVERIFY(window_->footprint_plot().isVisible());
        QVERIFY(lane_labels(window_->timeline()).size() > 1);
    }
};

PINSCOPE_UI_SUITE(LessonPanelTest)
#include "LessonPanelTest.moc"
