// SPDX-License-Identifier: GPL-3.0-or-later
// The time axis that the timeline and every plot share: live it follows now over its window, a
// young run starts at zero, frozen it stays where it is, and a new run starts over.
#include <QTest>

#include <qcustomplot.h>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/plots/LiveTimeAxis.h"

using namespace pinscope;

class LiveTimeAxisTest : public QObject {
    Q_OBJECT

    static void expect_range(const QCustomPlot& plot, double lower, double upper) {
        QCOMPARE(plot.xAxis->range().lower, lower);
        QCOMPARE(plot.xAxis->range().upper, upper);
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void liveItShowsTheLastWindowEndingNow() {
        QCustomPlot plot;
        ui::LiveTimeAxis time(plot, 20, 2);
        time.follow(65);
        expect_range(plot, 45, 65);
    }

    void aYoungRunFillsTheWidthOrKeepsItsWindow() {
        QCustomPlot plot;
        ui::LiveTimeAxis plots_axis(plot, 20, 2);
        plots_axis.follow(0.5);
        expect_range(plot, 0, 2);  // at least 2 s
        plots_axis.follow(7);
        expect_range(plot, 0, 7);  // the run so far, over the whole width

        QCustomPlot timeline;
        ui::LiveTimeAxis timeline_axis(timeline, 0.3);
        timeline_axis.follow(0.1);
        expect_range(timeline, 0, 0.3);  // spans keep the scale of the window
    }

    void frozenItStaysWhereItIsAndTheMouseMovesIt() {
        QCustomPlot plot;
        ui::LiveTimeAxis time(plot, 20, 2);
        time.follow(30);
        time.set_frozen(true);
        time.follow(90);
        expect_range(plot, 10, 30);
        QVERIFY(plot.interactions().testFlag(QCP::iRangeDrag));
        QVERIFY(plot.interactions().testFlag(QCP::iRangeZoom));
        time.set_frozen(false);
        QVERIFY(!plot.interactions().testFlag(QCP::iRangeDrag));
        time.follow(90);
        expect_range(plot, 70, 90);
    }

    void aNewRunStartsAtZeroOnItsOwnOrigin() {
        QCustomPlot plot;
        ui::LiveTimeAxis time(plot, 20, 2);
        time.follow(300);
        time.reset(5'000'000'000);
        expect_range(plot, 0, 20);
        QCOMPARE(time.seconds_of(6'500'000'000), 1.5);
    }

    void theWindowCanChange() {
        QCustomPlot plot;
        ui::LiveTimeAxis time(plot, 0.3);
        time.set_window(2);
        time.follow(10);
        expect_range(plot, 8, 10);
    }
};

PINSCOPE_UI_SUITE(LiveTimeAxisTest)
#include "LiveTimeAxisTest.moc"
