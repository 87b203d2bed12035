// SPDX-License-Identifier: GPL-3.0-or-later
// Every export writes a file its program can open: PNG decodes (at the scale asked for), SVG
// parses as XML, PDF starts with %PDF, the CSVs have their header rows, the Chrome trace parses as
// JSON. Failures say what and where; nothing is exported before a run.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSvgRenderer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/export/ExportActions.h"
#include "ui/export/ImageExport.h"
#include "ui/timeline/TimelinePlot.h"

using namespace pinscope;

namespace {

QByteArray head(const QString& path, qint64 bytes) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

QString first_line(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readLine()).trimmed() : QString();
}

void check_svg(const QString& path, int min_elements = 20) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString root;
    int elements = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            if (root.isEmpty()) root = xml.name().toString();
            ++elements;
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QVERIFY2(elements >= min_elements, qPrintable(QString::number(elements)));
}

// The largest difference of a colour channel's mean over `region` between two images.
int block_difference(const QImage& a, const QImage& b, const QRect& region) {
    long sum_a[3] = {0, 0, 0}, sum_b[3] = {0, 0, 0};
    for (int y = region.top(); y <= region.bottom(); ++y)
        for (int x = region.left(); x <= region.right(); ++x) {
            const QRgb pa = a.pixel(x, y), pb = b.pixel(x, y);
            sum_a[0] += qRed(pa), sum_a[1] += qGreen(pa), sum_a[2] += qBlue(pa);
            sum_b[0] += qRed(pb), sum_b[1] += qGreen(pb), sum_b[2] += qBlue(pb);
        }
    const long n = static_cast<long>(region.width()) * region.height();
    long worst = 0;
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(sum_a[c] - sum_b[c]) / n);
    return static_cast<int>(worst);
}

template <class F>
QString thrown_message(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class ExportTest : public QObject {
    Q_OBJECT

    std::unique_ptr<ui::MainWindow> window_;
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() {
        test::prepare_application();
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<ui::MainWindow>(test::quiet_window());
        window_->set_config(test::live_config());
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(window_->start());
        QTRY_VERIFY_WITH_TIMEOUT(window_->timeline().store().size() > 500, 5000);
    }

    void cleanupTestCase() { window_.reset(); }

    void pngDecodesAtTheScaleAskedFor() {
        ui::save_widget_image(*window_, path(QStringLiteral("window.png")), 2);
        QImage image(path(QStringLiteral("window.png")));
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), window_->size() * 2);
        ui::save_widget_image(window_->timeline(), path(QStringLiteral("timeline.png")), 1);
        QCOMPARE(QImage(path(QStringLiteral("timeline.png"))).size(), window_->timeline().size());
    }

    void svgParsesAsXml() {
        ui::save_widget_image(window_->timeline(), path(QStringLiteral("timeline.svg")));
        check_svg(path(QStringLiteral("timeline.svg")));
        ui::save_widget_image(*window_, path(QStringLiteral("window.svg")));
        check_svg(path(QStringLiteral("window.svg")), 2);  // the window's picture in an <image>
    }

    void pdfStartsWithItsMagic() {
        for (const auto& [name, widget] : window_->plots()) {
            const QString file = path(name + QStringLiteral(".pdf"));
            ui::save_widget_image(*widget, file);
            QCOMPARE(head(file, 5), QByteArray("%PDF-"));
        }
        ui::save_widget_image(*window_, path(QStringLiteral("window.pdf")));
        QCOMPARE(head(path(QStringLiteral("window.pdf")), 5), QByteArray("%PDF-"));
    }

    void csvHasItsHeaderRows() {
        window_->exports().save_csv(path(QStringLiteral("csv")));
        QCOMPARE(first_line(path(QStringLiteral("csv/spans.csv"))),
                 QStringLiteral("batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node"));
        QVERIFY(first_line(path(QStringLiteral("csv/counters.csv"))).startsWith(QStringLiteral("time_s,pinned_in_use_bytes")));
        QFile spans(path(QStringLiteral("csv/spans.csv")));
        QVERIFY(spans.open(QIODevice::ReadOnly));
        QVERIFY(spans.readAll().count('\n') > 500);
        const auto summary = QJsonDocument::fromJson(head(path(QStringLiteral("csv/summary.json")), 1 << 20));
        QVERIFY(summary.isObject());
    }

    void chromeTraceParsesAsJson() {
        window_->exports().save_chrome_trace(path(QStringLiteral("trace.json")));
        QJsonParseError error{};
        const auto trace = QJsonDocument::fromJson(head(path(QStringLiteral("trace.json")), 1 << 28), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(trace.object().value(QStringLiteral("traceEvents")).toArray().size() > 500);
    }

    void failuresSayWhatAndWhere() {
        const QString missing = path(QStringLiteral("no/such/folder/shot.png"));
        QVERIFY(thrown_message([&] { ui::save_widget_image(*window_, missing); }).contains(missing));
        QVERIFY(thrown_message([&] { ui::save_widget_image(*window_, path(QStringLiteral("shot.bmp"))); })
                    .contains(QStringLiteral(".png, .svg or .pdf")));
        QVERIFY(!thrown_message([&] { ui::save_widget_image(*window_, path(QStringLiteral("no/such/x.pdf"))); }).isEmpty());
        QFile blocker(path(QStringLiteral("a-file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QVERIFY(!thrown_message([&] { window_->exports().save_csv(path(QStringLiteral("a-file"))); }).isEmpty());
    }

    void screenshotsReplaceTheirFileWholeAndFollowLinks() {
        const QString svg = path(QStringLiteral("replaced.svg"));
        QFile old(svg);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        const QString link = path(QStringLiteral("link.pdf"));
        QVERIFY(QFile::link(QStringLiteral("target.pdf"), link));
        ui::save_widget_image(window_->timeline(), svg);
        ui::save_widget_image(window_->timeline(), link);
        check_svg(svg);
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(head(path(QStringLiteral("target.pdf")), 5), QByteArray("%PDF-"));
        const QStringList hidden = QDir(dir_.path()).entryList(QDir::Hidden | QDir::Files);
        for (const QString& name : hidden) QVERIFY2(!name.contains(QStringLiteral(".pinscope-")), qPrintable(name));
    }

    void screenshotOntoAFullDeviceIsAnErrorAndTheDeviceStays() {
        const QString link = path(QStringLiteral("full.png"));  // the suffix names the format
        QVERIFY(QFile::link(QStringLiteral("/dev/full"), link));
        const QString message = thrown_message([&] { ui::save_widget_image(window_->timeline(), link); });
        QVERIFY2(message.contains(QStringLiteral("No space left on device")), qPrintable(message));
        QVERIFY(QFileInfo(QStringLiteral("/dev/full")).exists());
        QVERIFY(!QFileInfo(QStringLiteral("/dev/full")).isFile());
    }

    void nothingIsExportedBeforeARun() {
        ui::MainWindow fresh(test::quiet_window());
        QVERIFY(thrown_message([&] { fresh.exports().save_csv(path(QStringLiteral("early"))); }).contains(QStringLiteral("start a run")));
        QVERIFY(!QFile::exists(path(QStringLiteral("early/spans.csv"))));
    }

    // SVG and PDF show what PNG shows. A window in a fixed state (no run, the configuration panel
    // scrolled half way): the SVG, drawn to pixels by Qt's own QSvgRenderer, against the PNG, in
    // blocks of 16x16 pixels, so that the smoothing of the 2x picture does not count but a
    // caption covered by a white box or a title drawn over another does. Qt cannot read PDF: there
    // the test checks that the page is the window's size and holds the window's 2x picture.
    void svgAndPdfShowWhatPngShows() {
        ui::MainWindow window(test::quiet_window());
        window.set_config(test::live_config());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* scroll = window.findChild<QScrollArea*>();
        QVERIFY(scroll != nullptr);
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum() / 2);
        QCoreApplication::processEvents();

        ui::save_widget_image(window, path(QStringLiteral("fixed.png")), 1);
        ui::save_widget_image(window, path(QStringLiteral("fixed.svg")));
        ui::save_widget_image(window, path(QStringLiteral("fixed.pdf")));
        const QImage png = QImage(path(QStringLiteral("fixed.png"))).convertToFormat(QImage::Format_RGB32);
        QSvgRenderer renderer(path(QStringLiteral("fixed.svg")));
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(QPoint(0, 0), window.size()));
        QImage svg(window.size(), QImage::Format_RGB32);
        svg.fill(Qt::white);
        {
            QPainter painter(&svg);
            renderer.render(&painter);
        }
        if (qEnvironmentVariableIsSet("PINSCOPE_EXPORT_SHOTS")) {
            png.save(QDir(qEnvironmentVariable("PINSCOPE_EXPORT_SHOTS")).filePath(QStringLiteral("fixed-png.png")));
            svg.save(QDir(qEnvironmentVariable("PINSCOPE_EXPORT_SHOTS")).filePath(QStringLiteral("fixed-svg.png")));
        }
        int differing = 0, worst = 0;
        QPoint worst_at;
        for (int y = 0; y + 16 <= png.height(); y += 16)
            for (int x = 0; x + 16 <= png.width(); x += 16) {
                const int d = block_difference(png, svg, QRect(x, y, 16, 16));
                if (d > 12) ++differing;
                if (d > worst) {
                    worst = d;
                    worst_at = QPoint(x, y);
                }
            }
        QVERIFY2(differing == 0, qPrintable(QStringLiteral("%1 blocks of 16x16 differ between the SVG and the PNG; the most (%2) at %3,%4")
                                                .arg(differing).arg(worst).arg(worst_at.x()).arg(worst_at.y())));

        const QByteArray pdf = head(path(QStringLiteral("fixed.pdf")), 1 << 26);
        QVERIFY(pdf.startsWith("%PDF-"));
        const QByteArray media_box = QStringLiteral("/MediaBox [0 0 %1 %2]")
                                         .arg(double(qRound(window.width() * 0.75)), 0, 'f', 6)
                                         .arg(double(qRound(window.height() * 0.75)), 0, 'f', 6)
                                         .toLatin1();  // 96 dpi pixels in whole points
        QVERIFY2(pdf.contains(media_box), qPrintable(QString::fromLatin1(media_box) + QStringLiteral(" in ") + QString::fromLatin1(pdf.mid(pdf.indexOf("/MediaBox"), 50))));
        QVERIFY(pdf.contains("/Width " + QByteArray::number(2 * window.width())) &&
                pdf.contains("/Height " + QByteArray::number(2 * window.height())));
    }
};

PINSCOPE_UI_SUITE(ExportTest)
#include "ExportTest.moc"
