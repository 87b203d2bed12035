// Every export writes a file its program can open: PNG decodes (at the scale asked for), SVG
// parses as XML, PDF starts with %PDF, the CSVs have their header rows, the Chrome trace parses as
// JSON. Failures say what and where; nothing is exported before a run.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <memory>
#include <stdexcept>

#include "UiTestSupport.h"
#include "export/ExportActions.h"
#include "export/ImageExport.h"
#include "timeline/TimelinePlot.h"

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

void check_svg(const QString& path) {
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
    QVERIFY(elements > 20);
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
        QTRY_VERIFY_WITH_TIMEOUT(window_->feed().spans().size() > 500, 5000);
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
        check_svg(path(QStringLiteral("window.svg")));
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
};

QTEST_MAIN(ExportTest)
#include "ExportTest.moc"
