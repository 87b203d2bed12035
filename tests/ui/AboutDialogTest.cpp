// SPDX-License-Identifier: GPL-3.0-or-later
// Help > About as a person opens it: the version, the commit and build it came from, the licence,
// and the versions of Qt, QCustomPlot, hwloc and CUDA that a bug report asks for; Copy gives the
// same lines as text. The window and the dialog carry pinscope's icon.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTest>
#include <QTimer>

#include <qcustomplot.h>

#include "engine/BuildConfig.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/about/AboutDialog.h"
#include "ui/style/AppIcon.h"

using namespace pinscope;

namespace {

QString value_of(const std::vector<NamedVersion>& lines, const std::string& name) {
    for (const NamedVersion& line : lines)
        if (line.name == name) return QString::fromStdString(line.version);
    return {};
}

}  // namespace

class AboutDialogTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void aboutSaysTheVersionCommitBuildLicenceAndLibraries() {
        const std::vector<NamedVersion> lines = ui::about_lines();
        QCOMPARE(value_of(lines, "Version"), QStringLiteral(PINSCOPE_VERSION));
        QVERIFY(!value_of(lines, "Commit").isEmpty());
        QVERIFY(!value_of(lines, "Build type").isEmpty());
        QVERIFY(value_of(lines, "Licence").startsWith(QStringLiteral("GPL-3.0-or-later")));
        QVERIFY(value_of(lines, "Qt").startsWith(QString::fromLatin1(qVersion())));
        QCOMPARE(value_of(lines, "QCustomPlot"), QStringLiteral(QCUSTOMPLOT_VERSION_STR));
        QVERIFY(value_of(lines, "hwloc").front().isDigit());
        // The CUDA lines are there with or without CUDA: a version, or why there is none.
        const QString runtime = value_of(lines, "CUDA runtime"), driver = value_of(lines, "NVIDIA driver");
        QVERIFY(!runtime.isEmpty());
        QVERIFY(!driver.isEmpty());
        if (PINSCOPE_HAVE_CUDA) QVERIFY2(runtime.front().isDigit(), qPrintable(runtime));
        else QCOMPARE(runtime, QStringLiteral("not in this build"));
    }

    void theDialogShowsEveryLineAndCopyPutsThemOnTheClipboard() {
        ui::AboutDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const std::vector<NamedVersion> lines = ui::about_lines();
        for (const NamedVersion& line : lines) {
            QVERIFY2(dialog.table_text().contains(QString::fromStdString(line.name).toHtmlEscaped()), line.name.c_str());
            QVERIFY2(dialog.table_text().contains(QString::fromStdString(line.version).toHtmlEscaped()), line.version.c_str());
        }
        QPushButton* copy = nullptr;
        for (QPushButton* button : dialog.findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("Copy")) copy = button;
        QVERIFY(copy != nullptr);
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(copy, Qt::LeftButton);
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("Version: " PINSCOPE_VERSION "\n")), qPrintable(copied));
        QVERIFY(copied.contains(QStringLiteral("QCustomPlot: " QCUSTOMPLOT_VERSION_STR "\n")));
    }

    void helpAboutOpensTheDialogFromTheWindow() {
        ui::MainWindow window(test::quiet_window());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction* about = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->text() == QStringLiteral("&Help"))
                for (QAction* action : menu->menu()->actions())
                    if (action->text() == QStringLiteral("About pinscope")) about = action;
        QVERIFY2(about != nullptr, "Help has no About pinscope");
        bool shown = false;
        // The dialog is modal: look at it from inside its own event loop, then close it.
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<ui::AboutDialog*>(QApplication::activeModalWidget());
            shown = dialog != nullptr && dialog->isVisible() && dialog->windowTitle() == QStringLiteral("About pinscope");
            if (QWidget* modal = QApplication::activeModalWidget()) modal->close();
        });
        about->trigger();
        QVERIFY(shown);
    }

    void theIconIsDrawnAtEverySizeAndReadsAtSixteenPixels() {
        const QIcon icon = ui::app_icon();
        QVERIFY(!icon.isNull());
        for (const int size : {16, 32, 48, 256}) QCOMPARE(icon.pixmap(size).width(), size);
        // At 16 pixels the three parts stay apart: grey memory (left), amber pinned batch
        // (middle), green GPU (right).
        const QImage small = ui::render_app_icon(16);
        const QColor memory = small.pixelColor(1, 12), pinned = small.pixelColor(8, 11), gpu = small.pixelColor(13, 12);
        QVERIFY2(memory.saturation() < 60 && memory.lightness() > 180, qPrintable(memory.name()));
        QVERIFY2(pinned.hue() > 20 && pinned.hue() < 50 && pinned.saturation() > 150, qPrintable(pinned.name()));
        QVERIFY2(gpu.hue() > 80 && gpu.hue() < 130 && gpu.saturation() > 100, qPrintable(gpu.name()));
    }
};

PINSCOPE_UI_SUITE(AboutDialogTest)
#include "AboutDialogTest.moc"
