// SPDX-License-Identifier: GPL-3.0-or-later
// The window shows a run that is not the live engine: every view is fed from a fixed list of
// frames (as a recorded run will be), and shows what those frames hold, nothing from the engine.
#include <QFile>
#include <QTest>

#include <memory>

#include "engine/runner/RunSource.h"
#include "tests/support/TempDir.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/export/ExportActions.h"
#include "ui/model/SpanStore.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"
#include "ui/window/MetricsPanel.h"

using namespace pinscope;

namespace {

constexpr TimeNs kOrigin = 1'000'000'000;
constexpr TimeNs kSecond = 1'000'000'000;

RunSummary summary_of(double batches_per_s) {
    RunSummary s;
    s.config = test::live_config();
    s.device.kind = DeviceKind::Cuda;  // a GPU this machine does not have: only the frames say so
    s.device.name = "NVIDIA Frame Test GPU";
    s.device.pci_bus_id = "0000:42:00.0";
    s.host = HostMode::Real;
    s.metrics.batches_per_s = batches_per_s;
    s.metrics.batches = 1234;
    s.pinned.allocated_bytes.current = 64 * 1024 * 1024;
    s.pinned.reserved_bytes.peak = 128 * 1024 * 1024;
    return s;
}

// Two seconds of a run in three frames: spans, counters, a marker in the second, the end in the third.
std::vector<std::shared_ptr<const RunFrame>> three_frames() {
    const std::vector<Span> spans = test::synthetic_spans(3000, kOrigin);
    std::vector<std::shared_ptr<const RunFrame>> frames;
    for (int i = 0; i < 3; ++i) {
        auto frame = std::make_shared<RunFrame>();
        frame->first = i == 0;
        frame->ended = i == 2;
        frame->origin = kOrigin;
        frame->time = kOrigin + (i + 1) * 2 * kSecond / 3;
        for (const Span& span : spans)
            if (span.end <= frame->time && span.end > frame->time - 2 * kSecond / 3) frame->spans.push_back(span);
        frame->counters.push_back(CounterSample{frame->time, 64.0 * 1024 * 1024, Counter::PinnedInUseBytes});
        frame->counters.push_back(CounterSample{frame->time, 5, Counter::InFlightBatches});
        if (i == 1) frame->markers.push_back(Marker{frame->time, MarkerKind::Reconfigured, "pin_memory: on -> off"});
        frame->window.batches_per_s = 100 + i;
        frame->window.gpu_busy = 0.5;
        frame->summary = summary_of(617.0 + i);
        frames.push_back(std::move(frame));
    }
    return frames;
}

}  // namespace

class FixedRunSourceTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void everyViewShowsTheFramesOfAFixedSource() {
        ui::MainWindow window(test::quiet_window());
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto frames = three_frames();
        std::size_t span_count = 0;
        for (const auto& frame : frames) span_count += frame->spans.size();

        window.feed().show(std::make_shared<FixedRunSource>(frames));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() == frames.back(), 3000);
        QVERIFY(!window.feed().running());  // a fixed source is not the live engine

        QCOMPARE(window.timeline().store().size(), span_count);
        QCOMPARE(window.timeline().marker_texts(), QStringList{QStringLiteral("pin_memory: on → off")});
        QVERIFY(!window.banner().is_emulated());
        QVERIFY2(window.banner().text().contains(QStringLiteral("NVIDIA Frame Test GPU")), qPrintable(window.banner().text()));
        QCOMPARE(window.metrics().value_of(QStringLiteral("batches/s")), QStringLiteral("102"));
        QVERIFY2(window.metrics().detail_of(QStringLiteral("batches/s")).contains(QStringLiteral("619")),
                 qPrintable(window.metrics().detail_of(QStringLiteral("batches/s"))));
        QVERIFY(window.footprint_plot().point_count() > 0);

        // The exports hold what the frames held.
        test::TempDir dir;
        window.exports().save_csv(QString::fromStdString(dir.file("csv")));
        QFile csv(QString::fromStdString(dir.file("csv/spans.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        qsizetype rows = 0;
        while (!csv.atEnd()) rows += csv.readLine().isEmpty() ? 0 : 1;
        QCOMPARE(static_cast<std::size_t>(rows), span_count + 1);  // a header row
    }

    void aNewSourceStartsAfresh() {
        ui::MainWindow window(test::quiet_window());
        window.feed().show(std::make_shared<FixedRunSource>(three_frames()));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() && window.feed().last_frame()->ended, 3000);
        auto only = std::make_shared<RunFrame>();
        only->first = true;
        only->ended = true;
        only->origin = 5 * kSecond;
        only->time = 6 * kSecond;
        only->summary = summary_of(1);
        only->spans = test::synthetic_spans(10, 5 * kSecond);
        window.feed().show(std::make_shared<FixedRunSource>(std::vector<std::shared_ptr<const RunFrame>>{only}));
        QTRY_VERIFY_WITH_TIMEOUT(window.feed().last_frame() == only, 3000);
        QCOMPARE(window.timeline().store().size(), only->spans.size());
        QVERIFY(window.timeline().marker_texts().isEmpty());
    }
};

PINSCOPE_UI_SUITE(FixedRunSourceTest)
#include "FixedRunSourceTest.moc"
