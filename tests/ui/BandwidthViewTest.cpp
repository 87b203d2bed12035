// The Bandwidth tab: a sweep runs off the GUI thread (the window keeps answering), fills the
// progress bar and one curve per direction and kind of memory, draws the link's limit, and can be
// cancelled.
#include <QElapsedTimer>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTest>

#include "UiTestSupport.h"
#include "bandwidth/BandwidthPlot.h"
#include "bandwidth/BandwidthView.h"

using namespace pinscope;

class BandwidthViewTest : public QObject {
    Q_OBJECT

    static BandwidthOptions small_sweep() {
        BandwidthOptions options;
        options.device = "emulated";
        options.min_bytes = 4096;
        options.max_bytes = 4u << 20;
        options.samples = 1;
        return options;
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void aSweepDrawsEveryCurveAndTheLinkLimit() {
        ui::BandwidthView view;
        view.resize(1200, 700);
        view.show();
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(small_sweep()));
        QVERIFY(view.running());
        QVERIFY(!view.run(small_sweep()));  // one at a time
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(view.progress().value(), view.progress().maximum());
        QCOMPARE(view.plot().series_count(), 6);  // H2D and D2H × pinned, pageable, write-combined
        QCOMPARE(view.plot().point_count(), 6 * 11);  // 4 KiB to 4 MiB, doubling
        QVERIFY(view.plot().graph(0)->dataCount() == 2);  // the link limit, across the sizes
        QVERIFY(view.plot().graph(0)->name().contains(QStringLiteral("GB/s")));
    }

    void theWindowAnswersWhileItSweeps() {
        ui::BandwidthView view;
        BandwidthOptions options = small_sweep();
        options.max_bytes = 1u << 30;
        options.samples = 3;
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(options));
        // The event loop keeps turning: a zero timer fires many times before the sweep ends.
        int ticks = 0;
        QTimer timer;
        QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(5);
        QTRY_VERIFY_WITH_TIMEOUT(ticks > 5, 5000);
        view.cancel();
        QVERIFY(finished.wait(60'000));
        QVERIFY(!view.running());
    }

    void cancelKeepsWhatWasMeasured() {
        ui::BandwidthView view;
        BandwidthOptions options = small_sweep();
        options.max_bytes = 1u << 30;
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(options));
        QTRY_VERIFY_WITH_TIMEOUT(view.plot().point_count() >= 1, 30'000);
        view.cancel();
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(view.plot().point_count() < 6 * 19);
        QVERIFY(view.status_text().startsWith(QStringLiteral("Cancelled")));
    }
};

QTEST_MAIN(BandwidthViewTest)
#include "BandwidthViewTest.moc"
