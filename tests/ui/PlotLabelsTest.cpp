// SPDX-License-Identifier: GPL-3.0-or-later
// The plots' labels can be read at every size: value-axis tick labels keep a label's height of air
// between them (the pinned-memory axis squeezed 7 labels into 50 px before a run; the throughput
// plot's right-axis labels touched), the (%) plot is 0 to 100 before data, the memlock line is not
// drawn where the process is exempt from it, and the timeline's marker labels stay whole inside the
// plot, above the lanes (they were cut at the right edge and covered spans and the highlighted batch).
#include <QTest>

#include <algorithm>
#include <memory>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/model/SpanStore.h"
#include "ui/plots/FootprintPlot.h"
#include "ui/plots/ThroughputPlot.h"
#include "ui/plots/UtilisationPlot.h"
#include "ui/style/AppStyle.h"
#include "ui/timeline/TimelinePlot.h"

using namespace pinscope;

namespace {

// The pixel distances between neighbouring tick labels of `axis` that are inside its range.
std::vector<double> tick_gaps(const QCPAxis* axis) {
    std::vector<double> pixels;
    for (const double tick : axis->tickVector())
        if (axis->range().contains(tick)) pixels.push_back(axis->coordToPixel(tick));
    std::sort(pixels.begin(), pixels.end());
    std::vector<double> gaps;
    for (std::size_t i = 1; i < pixels.size(); ++i) gaps.push_back(pixels[i] - pixels[i - 1]);
    return gaps;
}

void settle(QCustomPlot& plot) {
    plot.replot();
    plot.replot();  // the ticks fitted to the height the first one laid out
}

QCPGraph* graph_named(QCustomPlot& plot, const QString& prefix) {
    for (int i = 0; i < plot.graphCount(); ++i)
        if (plot.graph(i)->name().startsWith(prefix)) return plot.graph(i);
    return nullptr;
}

}  // namespace

class PlotLabelsTest : public QObject {
    Q_OBJECT

    // Every value axis of `plot`, at heights from a cramped 150 px to 600 px: at least two labels,
    // and none closer to the next than 1.6 times a label's height.
    void check_value_ticks(ui::TimeSeriesPlot& plot) {
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        for (const int height : {150, 200, 300, 600}) {
            plot.resize(700, height);
            QCoreApplication::processEvents();
            settle(plot);
            for (QCPAxis* axis : {plot.yAxis, plot.yAxis2}) {
                if (!axis->visible()) continue;
                const std::vector<double> gaps = tick_gaps(axis);
                const QString where = QStringLiteral("%1, %2 px high (axis %3 px), %4 axis")
                                          .arg(plot.title())
                                          .arg(height)
                                          .arg(plot.axisRect()->height())
                                          .arg(axis == plot.yAxis ? QStringLiteral("left") : QStringLiteral("right"));
                QVERIFY2(!gaps.empty(), qPrintable(where + QStringLiteral(": fewer than 2 labels")));
                const double closest = *std::min_element(gaps.begin(), gaps.end());
                QVERIFY2(closest >= ui::TimeSeriesPlot::min_tick_spacing(axis) - 0.5,
                         qPrintable(where + QStringLiteral(": labels %1 px apart").arg(closest)));
            }
        }
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void pinnedMemoryAxisLabelsDoNotOverlapBeforeARun() {
        ui::FootprintPlot plot;
        check_value_ticks(plot);
    }

    void throughputAxesLabelsDoNotTouch() {
        ui::ThroughputPlot plot;
        check_value_ticks(plot);
        Metrics m;
        m.batches_per_s = 388.5;
        m.h2d_gb_per_s = 12.4;
        for (int t = 0; t < 10; ++t) plot.add_metrics(t, m);
        plot.refresh(10);
        check_value_ticks(plot);
    }

    void percentPlotIsZeroTo100BeforeData() {
        ui::UtilisationPlot plot;
        QCOMPARE(plot.yAxis->range().lower, 0.0);
        QVERIFY2(plot.yAxis->range().upper >= 100, qPrintable(QString::number(plot.yAxis->range().upper)));
    }

    void memlockLineIsNotDrawnWhereTheProcessIsExempt() {
        ui::FootprintPlot plot;
        RunSummary summary;
        summary.pinned.budget_bytes = 4ull << 30;
        summary.pinned.reserved_bytes.peak = 3ull << 30;
        summary.memlock_limit_bytes = 8ull << 20;
        plot.add_summary(1, summary);
        QCPGraph* memlock = graph_named(plot, QStringLiteral("memlock"));
        QVERIFY(memlock != nullptr);
        QCOMPARE(memlock->dataCount(), 1);  // a limit that binds: drawn
        QCOMPARE(memlock->name(), QStringLiteral("memlock limit 8 MiB"));

        ui::FootprintPlot exempt_plot;
        summary.memlock_exempt = true;
        exempt_plot.add_summary(1, summary);
        memlock = graph_named(exempt_plot, QStringLiteral("memlock"));
        QCOMPARE(memlock->dataCount(), 0);
        QCOMPARE(memlock->name(), QStringLiteral("memlock limit 8 MiB: exempt (CAP_IPC_LOCK)"));
    }

    // The whole-run view: a marker near the right end and markers crowded together.
    void markerLabelsStayWholeInsideThePlotAndOffTheLanes() {
        ui::TimelinePlot plot;
        plot.resize(1200, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.reset(0);
        plot.add_spans(test::synthetic_spans(4000, 0, 20'000'000));  // about 11 s
        plot.refresh(10);
        std::vector<Marker> markers;
        const QString last = QStringLiteral("reconfigured: pin_memory: on → off");
        for (int i = 0; i < 6; ++i)
            markers.push_back({static_cast<TimeNs>(1'000'000'000 + i * 20'000'000), MarkerKind::Reconfigured, "reconfigured: num_workers 4 -> " + std::to_string(i + 1)});
        const TimeNs end = plot.store().latest_end();
        markers.push_back({end - 100'000'000, MarkerKind::Reconfigured, "reconfigured: pin_memory: on -> off"});
        plot.add_markers(markers);
        plot.set_frozen(true);
        plot.show_all();
        settle(plot);
        QCOMPARE(plot.marker_texts().size(), 7);
        QCOMPARE(plot.marker_texts().back(), last);  // the full text, however it is drawn
        const QList<QRectF> rects = plot.marker_label_rects();
        QVERIFY2(rects.size() >= 3, qPrintable(QString::number(rects.size())));
        const QRect lanes = plot.lanes_rect();
        for (const QRectF& r : rects) {
            QVERIFY2(r.left() >= lanes.left() - 0.5 && r.right() <= lanes.right() + 0.5,
                     qPrintable(QStringLiteral("label %1..%2 outside %3..%4").arg(r.left()).arg(r.right()).arg(lanes.left()).arg(lanes.right())));
            QVERIFY2(r.bottom() <= lanes.top() + 0.5, "a marker label covers the lanes");
            QVERIFY(r.top() >= 0);
            for (const QRectF& other : rects)
                if (&other != &r) QVERIFY2(!r.adjusted(0.5, 0.5, -0.5, -0.5).intersects(other), "two marker labels overlap");
        }
        // The marker at the right end is labelled whole, to the left of its line.
        const double x = plot.xAxis->coordToPixel(static_cast<double>(end - 100'000'000) * 1e-9);
        const auto at_end = std::find_if(rects.begin(), rects.end(), [&](const QRectF& r) { return std::abs(r.right() - x) < 3; });
        QVERIFY2(at_end != rects.end(), "the last marker's label does not end at its line");
        QVERIFY(at_end->width() >= QFontMetricsF(ui::app_font(9)).horizontalAdvance(QStringLiteral("reconfigured: pin_memory")));
    }
};

PINSCOPE_UI_SUITE(PlotLabelsTest)
#include "PlotLabelsTest.moc"
