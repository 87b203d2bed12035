// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's plottable: spans too narrow to see are folded (and counted) into bars of busy
// share, wide ones are drawn one by one, and every visible span is accounted for either way;
// lanes of threads that a change removed leave the views that start after it.
#include <QRegularExpression>
#include <QTest>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/model/SpanStore.h"
#include "ui/plots/ByteFormat.h"
#include "ui/style/StagePalette.h"
#include "ui/timeline/SpanPlottable.h"
#include "ui/timeline/TimelinePlot.h"

using namespace pinscope;

namespace {

constexpr TimeNs kMs = 1'000'000;

// Pixels of `color` in the image column x, between the rows' top and bottom.
int pixels_of(const QImage& image, int x, int top, int bottom, const QColor& color) {
    int n = 0;
    for (int y = top; y <= bottom; ++y) n += image.pixelColor(x, y).rgb() == color.rgb() ? 1 : 0;
    return n;
}

QStringList lane_labels(const ui::TimelinePlot& plot) {
    QStringList labels;
    const auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    for (const QString& label : ticker->ticks()) labels << label.trimmed();
    return labels;
}

}  // namespace

class SpanPlottableTest : public QObject {
    Q_OBJECT

    static constexpr TimeNs kOrigin = 5'000'000'000;

private slots:
    void initTestCase() { test::prepare_application(); }

    void zoomedOutFoldsNarrowSpans() {
        ui::TimelinePlot plot;
        plot.reset(kOrigin);
        plot.add_spans(test::synthetic_spans(60'000, kOrigin));
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
        ui::TimelinePlot plot;
        plot.reset(kOrigin);
        plot.add_spans(test::synthetic_spans(60'000, kOrigin));
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);  // lanes; the x range stays while frozen
        plot.xAxis->setRange(10.0, 10.02);  // 8 batches: the shortest span (250 us) is 6 px wide
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto& stats = plot.spans()->last_draw();
        QCOMPARE(stats.folds, 0u);
        QCOMPARE(stats.folded_spans, 0u);
        QVERIFY(stats.boxes >= 48);
        QVERIFY(stats.boxes < 80);
    }

    void hoverFindsTheSpanUnderTheMouse() {
        ui::TimelinePlot plot;
        plot.reset(kOrigin);
        plot.add_spans(test::synthetic_spans(6000, kOrigin));
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);  // lanes; the x range stays while frozen
        plot.xAxis->setRange(1.0, 1.02);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const int compute_row = plot.store().row_of({LaneKind::ComputeStream, 0});
        // The compute span of the batch whose copy starts at 1.01 s runs from 1.010625 s to 1.0125 s.
        const double x = plot.xAxis->coordToPixel(1.0115);
        const double y = plot.yAxis->coordToPixel(compute_row);
        const auto span = plot.span_at(QPoint(static_cast<int>(x), static_cast<int>(y)));
        QVERIFY(span);
        QCOMPARE(span->stage, Stage::Compute);
        QCOMPARE(span->batch, 404u);
        QVERIFY(plot.describe(*span).contains(QStringLiteral("batch 404")));
    }

    // Shown whole, a lane is not one hatched block: each pixel column is a bar as high as the share
    // of its time the lane was busy, in the colour of the stage that took most of it.
    void wholeRunShowsBusyShareAsBarHeight() {
        const Lane lane{LaneKind::ComputeStream, 0};
        std::vector<Span> spans;
        const TimeNs tick = kMs / 10;  // 100 us spans: folded at any zoom that shows seconds
        std::uint64_t batch = 0;
        for (TimeNs t = 0; t < 5'000 * kMs; t += tick)  // busy all the time for 5 s
            spans.push_back({kOrigin + t, kOrigin + t + tick, batch++, 0, Stage::Compute, lane});
        for (TimeNs t = 5'000 * kMs; t < 10'000 * kMs; t += 4 * tick)  // then a quarter of the time
            spans.push_back({kOrigin + t, kOrigin + t + tick, batch++, 0, Stage::Compute, lane});
        ui::TimelinePlot plot;
        plot.reset(kOrigin);
        plot.add_spans(spans);
        plot.resize(1200, 600);
        plot.set_frozen(true);
        plot.refresh(0);
        plot.show_all();
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot.toPixmap(1200, 600).toImage();
        const int top = static_cast<int>(plot.yAxis->coordToPixel(-0.5)) + 1;
        const int bottom = static_cast<int>(plot.yAxis->coordToPixel(0.5)) - 1;
        const QColor compute = ui::stage_color(Stage::Compute);
        for (const double s : {1.0, 2.5, 4.0}) {
            const int full = pixels_of(image, static_cast<int>(plot.xAxis->coordToPixel(s)), top, bottom, compute);
            const int quarter = pixels_of(image, static_cast<int>(plot.xAxis->coordToPixel(s + 5)), top, bottom, compute);
            QVERIFY2(full > 50, qPrintable(QStringLiteral("full %1 px at %2 s").arg(full).arg(s)));
            QVERIFY2(std::abs(quarter - full / 4.0) <= 2,
                     qPrintable(QStringLiteral("quarter %1 px against full %2 px").arg(quarter).arg(full)));
        }
        // Hovering a bar tells what its column holds.
        const QPointF at(plot.xAxis->coordToPixel(7.5), plot.yAxis->coordToPixel(0));
        const auto column = plot.spans()->column_at(at);
        QVERIFY(column);
        QVERIFY(std::abs(column->busy - 0.25) < 0.01);
        QVERIFY(column->stage_ns[static_cast<std::size_t>(Stage::Compute)] > 0);
        const QRegularExpression shares(QStringLiteral("busy 2[45]\\.\\d %: compute 2[45]\\.\\d %<br>"));
        QVERIFY2(plot.describe(*column).contains(shares), qPrintable(plot.describe(*column)));
    }

    // Workers 4 -> 2: the two that are gone leave a view that starts after the change, and come
    // back when the view reaches back before it.
    void lanesOfWorkersThatAreGoneLeaveTheView() {
        std::vector<Span> spans;
        std::uint64_t batch = 0;
        for (TimeNs t = 0; t < 2'000 * kMs; t += 10 * kMs) {
            const std::uint16_t workers = t < 1'000 * kMs ? 4 : 2;
            for (std::uint16_t w = 0; w < workers; ++w)
                spans.push_back({kOrigin + t, kOrigin + t + 8 * kMs, batch, 0, Stage::Load, {LaneKind::Worker, w}});
            spans.push_back({kOrigin + t, kOrigin + t + 5 * kMs, batch++, 0, Stage::Wait, {LaneKind::Consumer, 0}});
        }
        ui::TimelinePlot plot;
        plot.reset(kOrigin);
        plot.add_spans(spans);
        plot.add_markers({{kOrigin + 999 * kMs, MarkerKind::Reconfigured, "reconfigured: num_workers: 4 -> 2"}});
        plot.resize(1200, 600);
        plot.set_live_window(0.3);
        plot.refresh(2.0, true);  // live: 1.7 s to 2.0 s
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(lane_labels(plot), (QStringList{QStringLiteral("worker 0"), QStringLiteral("worker 1"),
                                                 QStringLiteral("consumer")}));
        plot.set_frozen(true);
        plot.show_all();
        plot.refresh(2.0);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(lane_labels(plot).size(), 5);
        QVERIFY(lane_labels(plot).contains(QStringLiteral("worker 3")));
    }

    // Sizes in the tooltip in binary units, as the metrics panel writes them.
    void tooltipSizesAreInMiB() {
        ui::TimelinePlot plot;
        const Span span{kOrigin, kOrigin + kMs, 7, 38'535'168, Stage::H2D, {LaneKind::CopyStream, 0}};
        const QString text = plot.describe(span);
        QVERIFY2(text.contains(ui::memory_text(38'535'168)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("36.8 MiB")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral(" MB")), qPrintable(text));
    }
};

PINSCOPE_UI_SUITE(SpanPlottableTest)
#include "SpanPlottableTest.moc"
