// SPDX-License-Identifier: GPL-3.0-or-later
// The Bandwidth tab: the engine's sweep on the emulated device draws one curve per direction and
// kind of host memory and the link's limit; a sweep runs off the GUI thread with a progress bar
// that moves, can be cancelled keeping what was measured, and a failure is said, not swallowed.
// The threading tests use a sweep of a known pace, so that they do not depend on how fast the
// engine's sweep happens to be.
#include <QProgressBar>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/bandwidth/BandwidthPlot.h"
#include "ui/bandwidth/BandwidthView.h"

using namespace pinscope;

namespace {

BandwidthOptions small_sweep() {
    BandwidthOptions options;
    options.device = "emulated";
    options.min_bytes = 4096;
    options.max_bytes = 4u << 20;
    options.samples = 1;
    return options;
}

// `points` points of H2D pinned, `pause` apart, stopping when asked to.
ui::BandwidthSweepFunction paced_sweep(int points, std::chrono::milliseconds pause) {
    return [=](const BandwidthOptions&, const std::function<bool(double, const BandwidthPoint&)>& progress) {
        BandwidthResult result;
        result.device.kind = DeviceKind::Emulated;
        result.device.name = "paced test sweep";
        for (int i = 0; i < points; ++i) {
            std::this_thread::sleep_for(pause);
            result.points.push_back({CopyDirection::H2D, HostMemoryKind::Pinned, std::size_t{4096} << i % 20, 10.0 + i, 9, 11, 1});
            if (!progress(static_cast<double>(i + 1) / points, result.points.back())) break;
        }
        return result;
    };
}

}  // namespace

class BandwidthViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void theEnginesSweepDrawsEveryCurveAndTheLinkLimit() {
        ui::BandwidthView view;
        view.resize(1200, 700);
        view.show();
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(small_sweep()));
        QVERIFY(finished.wait(60'000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(view.progress().value(), view.progress().maximum());
        QCOMPARE(view.plot().series_count(), 6);      // H2D and D2H × pinned, pageable, write-combined
        QCOMPARE(view.plot().point_count(), 6 * 11);  // 4 KiB to 4 MiB, doubling
        QCOMPARE(view.plot().graph(0)->dataCount(), 2);  // the link limit, across the sizes
        QVERIFY(view.plot().graph(0)->name().contains(QStringLiteral("GB/s")));
    }

    void aSweepRunsOffTheGuiThreadWithAMovingProgressBar() {
        ui::BandwidthView view(paced_sweep(40, std::chrono::milliseconds(10)));
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(small_sweep()));
        QVERIFY(view.running());
        QVERIFY(!view.run(small_sweep()));  // one at a time
        // While the sweep runs the event loop turns, and the bar shows a part done.
        QTRY_VERIFY_WITH_TIMEOUT(view.progress().value() > 0 && view.progress().value() < view.progress().maximum(), 5000);
        QVERIFY(view.running());
        QVERIFY(finished.wait(10'000));
        QCOMPARE(view.plot().point_count(), 40);
        QCOMPARE(view.progress().value(), view.progress().maximum());
    }

    void cancelKeepsWhatWasMeasured() {
        ui::BandwidthView view(paced_sweep(1000, std::chrono::milliseconds(5)));
        QSignalSpy finished(&view, &ui::BandwidthView::sweepFinished);
        QVERIFY(view.run(small_sweep()));
        QTRY_VERIFY_WITH_TIMEOUT(view.plot().point_count() >= 3, 5000);
        view.cancel();
        QVERIFY(finished.wait(10'000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(view.plot().point_count() >= 3);
        QVERIFY(view.plot().point_count() < 1000);
        QVERIFY(view.status_text().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(!view.running());
    }

    void aFailureIsSaid() {
        ui::BandwidthView view([](const BandwidthOptions&, const std::function<bool(double, const BandwidthPoint&)>&) -> BandwidthResult {
            throw DeviceError("cuda:3: no such GPU");
        });
        QSignalSpy failed(&view, &ui::BandwidthView::sweepFailed);
        QVERIFY(view.run(small_sweep()));
        QVERIFY(failed.wait(10'000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("no such GPU")));
        QVERIFY(view.status_text().contains(QStringLiteral("no such GPU")));
        QVERIFY(!view.running());
    }

    // Write-combined H2D runs at the pinned rate, so the two curves coincide; measured pinned first
    // (as the sweep does), pinned used to be drawn under write-combined and could not be seen.
    void theH2DPinnedCurveIsDrawnOnTopOfTheCurvesItCoincidesWith() {
        ui::BandwidthPlot plot;
        plot.resize(900, 500);
        plot.reset(4096, 4u << 20);
        const HostMemoryKind kinds[] = {HostMemoryKind::Pinned, HostMemoryKind::Pageable, HostMemoryKind::WriteCombined};
        for (std::size_t bytes = 4096; bytes <= (4u << 20); bytes *= 4)
            for (const CopyDirection direction : {CopyDirection::H2D, CopyDirection::D2H})
                for (const HostMemoryKind memory : kinds)
                    plot.add_point({direction, memory, bytes, memory == HostMemoryKind::Pageable ? 6.0 : 25.0, 0, 0, 1});
        const std::vector<QCPGraph*> order = plot.drawing_order();
        QCOMPARE(order.size(), std::size_t{6});
        QCOMPARE(order.back(), plot.series(CopyDirection::H2D, HostMemoryKind::Pinned));
        const auto position = [&](CopyDirection d, HostMemoryKind m) {
            return std::find(order.begin(), order.end(), plot.series(d, m)) - order.begin();
        };
        QVERIFY(position(CopyDirection::H2D, HostMemoryKind::WriteCombined) < position(CopyDirection::H2D, HostMemoryKind::Pinned));
        QVERIFY(position(CopyDirection::D2H, HostMemoryKind::Pinned) < position(CopyDirection::H2D, HostMemoryKind::WriteCombined));
        QVERIFY(plot.series(CopyDirection::H2D, HostMemoryKind::WriteCombined)->scatterStyle().shape() !=
                plot.series(CopyDirection::H2D, HostMemoryKind::Pinned)->scatterStyle().shape());
        // And on screen: where the two coincide, the pixel is the pinned colour.
        plot.replot();
        const QImage image = plot.toPixmap(900, 500, 1).toImage();
        const QPoint at(qRound(plot.xAxis->coordToPixel(1 << 20)), qRound(plot.yAxis->coordToPixel(25.0)));
        QCOMPARE(image.pixelColor(at), QColor(0xF2, 0x8E, 0x2B));
    }
};

PINSCOPE_UI_SUITE(BandwidthViewTest)
#include "BandwidthViewTest.moc"
