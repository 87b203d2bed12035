// SPDX-License-Identifier: GPL-3.0-or-later
// The screenshot shows the run: the timeline's part of it is coloured spans, not a blank area
// (and before a run it is blank, so the check can tell).
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/export/ImageExport.h"
#include "ui/timeline/TimelinePlot.h"

using namespace pinscope;

namespace {

// Share of the pixels in `region` with a clear colour (spans are coloured; text, grid and
// background are grey).
double coloured_share(const QImage& image, const QRect& region) {
    const QRect r = region.intersected(image.rect());
    double coloured = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) coloured += QColor(image.pixel(x, y)).hsvSaturation() > 80;
    return r.isEmpty() ? 0 : coloured / (r.width() * r.height());
}

}  // namespace

class ScreenshotTest : public QObject {
    Q_OBJECT

    std::unique_ptr<ui::MainWindow> window_;
    QTemporaryDir dir_;

    QRect lanes_in_window(double scale) const {
        const QRect lanes = window_->timeline().lanes_rect();
        const QPoint top_left = window_->timeline().mapTo(window_.get(), lanes.topLeft());
        return QRect(top_left * scale, lanes.size() * scale);
    }

    QImage shot(const QString& name, double scale) {
        const QString file = dir_.filePath(name);
        ui::save_widget_image(*window_, file, scale);
        return QImage(file);
    }

private slots:
    void initTestCase() {
        test::prepare_application();
        window_ = std::make_unique<ui::MainWindow>(test::quiet_window());
        window_->set_config(test::live_config());
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanupTestCase() { window_.reset(); }

    void timelineIsBlankBeforeARun() {
        const QImage image = shot(QStringLiteral("before.png"), 1);
        QVERIFY(coloured_share(image, lanes_in_window(1)) < 0.01);
    }

    void timelineRegionShowsTheRun() {
        QVERIFY(window_->start());
        // How soon the live view fills depends on how fast this machine runs the workers (a loaded
        // machine under a sanitizer needs seconds), so wait for a picture that shows the run.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window_->feed().poll();
                return coloured_share(shot(QStringLiteral("waiting.png"), 1), lanes_in_window(1)) > 0.15;
            }(),
            20000);
        for (double scale : {1.0, 2.0}) {
            const QImage image = shot(QStringLiteral("run-%1.png").arg(scale), scale);
            QCOMPARE(image.size(), window_->size() * scale);
            const QRect lanes = lanes_in_window(scale);
            const double variance = test::grey_variance(image, lanes);
            const double coloured = coloured_share(image, lanes);
            QVERIFY2(variance > 300, qPrintable(QStringLiteral("grey variance %1").arg(variance)));
            QVERIFY2(coloured > 0.15, qPrintable(QStringLiteral("coloured share %1").arg(coloured)));
        }
    }
};

PINSCOPE_UI_SUITE(ScreenshotTest)
#include "ScreenshotTest.moc"
