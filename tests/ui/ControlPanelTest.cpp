// The configuration panel follows PyTorch's rules as the engine states them: no prefetch_factor
// without workers, a run that lasts until Stop, edits announced once after a pause, and every
// field round-trips.
#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "UiTestSupport.h"
#include "controls/ControlPanel.h"

using namespace pinscope;

class ControlPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void showsAndReturnsEveryField() {
        ui::ControlPanel panel;
        LoaderConfig config = test::live_config(false, 6);
        config.prefetch_factor = 3;
        config.batch_size = 32;
        config.sample_shape = {3, 64, 64};
        config.dtype = DType::F16;
        config.pin_mode = PinMode::Register;
        config.non_blocking = false;
        config.in_order = false;
        config.cpu_us_per_sample = 125.5;
        config.gpu_us_per_batch = 4000;
        config.host = HostMode::Real;
        config.pinned_budget_bytes = 512u << 20;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        config.seconds = 12.5;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        config.seconds.reset();
        config.batches = 1000;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
    }

    void noWorkersMeansNoPrefetchFactor() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QVERIFY(panel.prefetch_factor()->isEnabled());
        panel.num_workers()->setValue(0);
        QVERIFY(!panel.prefetch_factor()->isEnabled());
        QVERIFY(!panel.config().prefetch_factor);
        QVERIFY(panel.valid());
    }

    void theCopyStreamBoxSaysAndSetsWhereTheCopyIsQueued() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QComboBox* copy_stream = nullptr;
        for (QComboBox* combo : panel.findChildren<QComboBox*>())
            if (combo->findText(QStringLiteral("compute")) >= 0) copy_stream = combo;
        QVERIFY(copy_stream != nullptr);
        QCOMPARE(copy_stream->currentText(), QStringLiteral("side"));
        for (int i = 0; i < copy_stream->count(); ++i)
            QVERIFY(!copy_stream->itemData(i, Qt::ToolTipRole).toString().isEmpty());
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        copy_stream->setCurrentIndex(copy_stream->findText(QStringLiteral("compute")));
        QVERIFY(edited.wait(2000));
        QCOMPARE(edited.first().first().value<LoaderConfig>().copy_stream, CopyStream::Compute);
        LoaderConfig config = panel.config();
        config.copy_stream = CopyStream::Side;
        panel.set_config(config);
        QCOMPARE(copy_stream->currentText(), QStringLiteral("side"));
    }

    void anEditIsAnnouncedOnceAfterAPause() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        for (int workers = 5; workers <= 9; ++workers) panel.num_workers()->setValue(workers);  // a slider drag
        QCOMPARE(edited.count(), 0);
        QVERIFY(edited.wait(2000));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.first().first().value<LoaderConfig>().num_workers, 9u);
    }

    void anInvalidEditIsExplainedAndNotAnnounced() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        LoaderConfig config = panel.config();
        config.pinned_budget_bytes = 16u << 20;  // less than 8 batches of 36.8 MiB
        panel.set_config(config);
        panel.pin_memory()->click();
        panel.pin_memory()->click();
        QVERIFY(!panel.valid());
        QVERIFY(panel.issue_text().contains(QStringLiteral("pinned_budget_bytes")));
        QTest::qWait(500);
        QCOMPARE(edited.count(), 0);
    }
};

QTEST_MAIN(ControlPanelTest)
#include "ControlPanelTest.moc"
