// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics row as a person reads it: GPU starved with its split and the whole run, the
// consumer's wait and host held beside it, and the utilisation plot's lines.
#include <QTest>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/plots/UtilisationPlot.h"
#include "ui/window/MetricsPanel.h"

using namespace pinscope;

namespace {

const QString kStarved = QStringLiteral("GPU starved");
const QString kConsumer = QStringLiteral("consumer wait · host held");

Metrics last_second() {
    Metrics m;
    m.gpu_busy = 0.79;
    m.gpu_starved = 0.12;
    m.gpu_starved_copy = 0.03;
    m.gpu_starved_host = 0.09;
    m.consumer_wait = 0.99;
    m.host_held = 0.041;
    return m;
}

RunSummary whole_run() {
    RunSummary s;
    s.metrics.gpu_busy = 0.75;
    s.metrics.gpu_starved = 0.2;
    s.metrics.gpu_starved_copy = 0.05;
    s.metrics.gpu_starved_host = 0.15;
    s.metrics.consumer_wait = 0.95;
    s.metrics.host_held = 0.04;
    return s;
}

}  // namespace

class MetricsPanelTest : public QObject {
    Q_OBJECT

private slots:
    void gpuStarvedShowsTheLastSecondItsSplitAndTheWholeRun() {
        ui::MetricsPanel panel;
        panel.set_window(last_second());
        panel.set_summary(whole_run());
        QCOMPARE(panel.value_of(QStringLiteral("GPU busy")), QStringLiteral("79.0 %"));
        QCOMPARE(panel.value_of(kStarved), QStringLiteral("12.0 %"));
        QCOMPARE(panel.detail_of(kStarved), QStringLiteral("copy 3.0 % · host 9.0 % · run 20.0 %"));
        QVERIFY(panel.tooltip_of(kStarved).contains(QStringLiteral("no kernel ran")));
        QVERIFY(panel.tooltip_of(kStarved).contains(QStringLiteral("copy was in flight")));
    }

    void theConsumersWaitAndHostHeldHaveTheirOwnTileNamedForTheConsumer() {
        ui::MetricsPanel panel;
        panel.set_window(last_second());
        panel.set_summary(whole_run());
        QCOMPARE(panel.value_of(kConsumer), QStringLiteral("99.0 % · 4.1 %"));
        QCOMPARE(panel.detail_of(kConsumer), QStringLiteral("run: 95.0 % · 4.0 %"));
        QVERIFY(panel.tooltip_of(kConsumer).contains(QStringLiteral("while the GPU is busy")));
        QVERIFY(panel.value_of(QStringLiteral("data wait")).isEmpty());  // no tile by the old, ambiguous name
    }

    void clearForgetsTheLastRun() {
        ui::MetricsPanel panel;
        panel.set_window(last_second());
        panel.set_summary(whole_run());
        panel.clear();
        QCOMPARE(panel.value_of(kStarved), QStringLiteral("–"));
        panel.set_window(Metrics{});
        QCOMPARE(panel.detail_of(kStarved), QStringLiteral("copy 0.0 % · host 0.0 % · run 0.0 %"));
    }

    void utilisationPlotDrawsGpuStarvedBesideGpuBusy() {
        ui::UtilisationPlot plot;
        QStringList names;
        for (int i = 0; i < plot.graphCount(); ++i) names << plot.graph(i)->name();
        QCOMPARE(names, (QStringList{QStringLiteral("GPU busy"), QStringLiteral("copy hidden"), kStarved,
                                     QStringLiteral("consumer wait")}));
        plot.add_metrics(1.0, last_second());
        QCOMPARE(plot.graph(2)->data()->at(0)->value, 12.0);
        QCOMPARE(plot.graph(3)->data()->at(0)->value, 99.0);
    }
};

PINSCOPE_UI_SUITE(MetricsPanelTest)
#include "MetricsPanelTest.moc"
