// The timeline's plottable: spans too narrow to see are folded (and counted), wide ones are drawn
// one by one, and every visible span is accounted for either way.
#include <QTest>

#include "UiTestSupport.h"
#include "model/SpanStore.h"
#include "timeline/SpanPlottable.h"
#include "timeline/TimelinePlot.h"

using namespace pinscope;

class SpanPlottableTest : public QObject {
    Q_OBJECT

    static constexpr TimeNs kOrigin = 5'000'000'000;

private slots:
    void initTestCase() { test::prepare_application(); }

    void zoomedOutFoldsNarrowSpans() {
        ui::SpanStore store;
        store.add(test::synthetic_spans(60'000, kOrigin));
        ui::TimelinePlot plot(store);
        plot.reset(kOrigin);
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);  // lanes; the x range stays while frozen
        plot.show_all();
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto& stats = plot.spans()->last_draw();
        QVERIFY(stats.folds > 0);
        QVERIFY(stats.folded_spans > 50'000);
        QCOMPARE(stats.boxes + stats.folded_spans, 60'000u);  // nothing lost, nothing counted twice
    }

    void zoomedInDrawsEverySpan() {
        ui::SpanStore store;
        store.add(test::synthetic_spans(60'000, kOrigin));
        ui::TimelinePlot plot(store);
        plot.reset(kOrigin);
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);  // lanes; the x range stays while frozen
        plot.xAxis->setRange(10.0, 10.05);  // 20 batches
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto& stats = plot.spans()->last_draw();
        QCOMPARE(stats.folds, 0u);
        QVERIFY(stats.boxes >= 100);
        QVERIFY(stats.boxes < 200);
    }

    void hoverFindsTheSpanUnderTheMouse() {
        ui::SpanStore store;
        store.add(test::synthetic_spans(6000, kOrigin));
        ui::TimelinePlot plot(store);
        plot.reset(kOrigin);
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);  // lanes; the x range stays while frozen
        plot.xAxis->setRange(1.0, 1.02);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const int compute_row = store.row_of({LaneKind::ComputeStream, 0});
        // The compute span of the batch whose copy starts at 1.01 s runs from 1.010625 s to 1.0125 s.
        const double x = plot.xAxis->coordToPixel(1.0115);
        const double y = plot.yAxis->coordToPixel(compute_row);
        const auto span = plot.span_at(QPoint(static_cast<int>(x), static_cast<int>(y)));
        QVERIFY(span);
        QCOMPARE(span->stage, Stage::Compute);
        QCOMPARE(span->batch, 404u);
        QVERIFY(plot.describe(*span).contains(QStringLiteral("batch 404")));
    }
};

QTEST_MAIN(SpanPlottableTest)
#include "SpanPlottableTest.moc"
