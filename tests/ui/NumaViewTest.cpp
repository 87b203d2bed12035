// SPDX-License-Identifier: GPL-3.0-or-later
// The NUMA view draws every machine legibly: no cell overlaps another or leaves its node, nodes
// stay inside their packages, GPUs sit clear of the packages, at 800x500 and at 1600x1000; the CPU
// numbers of a 2-socket, 128-CPU server fit at 800x500; the cores where the loader's threads ran
// are coloured and the idle ones are not; without a topology it says so. Set PINSCOPE_NUMA_SHOTS
// to a folder to keep the rendered PNGs.
#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include "tests/ui/NumaFixtures.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/export/ImageExport.h"
#include "ui/model/SpanStore.h"
#include "ui/numa/NumaText.h"
#include "ui/numa/NumaView.h"
#include "ui/numa/NumaViewModel.h"

using namespace pinscope;
using ui::NumaSnapshot;

namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

// The 2-socket server with the GPU on socket 1 and most else on socket 0: workers on CPUs 0-3, the
// pin thread on CPU 4, three quarters of the pinned pages on node 0 (and of the H2D bytes crossing),
// the consumer on CPU 40 (socket 1).
NumaSnapshot two_socket_remote() {
    ui::SpanStore spans;
    std::vector<Span> list;
    for (int w = 0; w < 4; ++w)
        list.push_back(test::host_span(LaneKind::Worker, w, 0, 700 + 60 * w, Stage::Load, static_cast<std::uint16_t>(w)));
    list.push_back(test::host_span(LaneKind::PinThread, 4, 100, 700, Stage::Pin));
    list.push_back(test::host_span(LaneKind::Consumer, 40, 0, 800, Stage::Wait));
    list.push_back(test::host_span(LaneKind::Consumer, 40, 800, 1000, Stage::Staging));
    spans.add(list);
    ui::NumaViewModel model;
    ui::NumaInputs in;
    in.topology = test::two_socket_topology();
    in.usage = test::two_node_usage(1, 0, 0, 0, 0);
    in.now_s = 10;
    model.update(in, spans);
    in.usage = test::two_node_usage(1, 3 * kGiB / 2, kGiB / 2, 20'000'000'000, 15'000'000'000);
    in.usage.host_copy_bytes = 40'000'000'000;
    in.usage.cross_node_host_copy_bytes = 12'000'000'000;
    in.now_s = 11;
    return model.update(in, spans);
}

NumaSnapshot laptop_running() {
    ui::SpanStore spans;
    spans.add({test::host_span(LaneKind::Worker, 2, 0, 900, Stage::Load, 0), test::host_span(LaneKind::Worker, 3, 0, 500, Stage::Collate, 1),
               test::host_span(LaneKind::PinThread, 5, 0, 400, Stage::Pin), test::host_span(LaneKind::Consumer, 1, 0, 1000, Stage::Wait)});
    ui::NumaViewModel model;
    ui::NumaInputs in;
    in.topology = test::laptop_topology();
    in.usage.nodes = {{0, 512ull << 20}};
    in.usage.h2d_bytes = 1'000'000'000;
    in.device_name = "emulated H200 (h200-pcie5)";
    in.now_s = 0;
    model.update(in, spans);
    in.usage.h2d_bytes = 12'000'000'000;
    in.now_s = 1;
    return model.update(in, spans);
}

// The 4-GPU server running on its first GPU (socket 0) with pinned pages interleaved over both
// nodes: half the copies cross. Workers on CPUs 0-7, the pin thread on 8, the consumer on 9.
NumaSnapshot four_gpu_interleaved() {
    ui::SpanStore spans;
    std::vector<Span> list;
    for (int w = 0; w < 8; ++w)
        list.push_back(test::host_span(LaneKind::Worker, w, 0, 500 + 50 * w, Stage::Load, static_cast<std::uint16_t>(w)));
    list.push_back(test::host_span(LaneKind::PinThread, 8, 0, 900, Stage::Pin));
    list.push_back(test::host_span(LaneKind::Consumer, 9, 0, 1000, Stage::Sync));
    spans.add(list);
    ui::NumaViewModel model;
    ui::NumaInputs in;
    in.topology = test::four_gpu_topology();
    in.usage.gpu_pci_bus_id = "0000:18:00.0";
    in.usage.gpu_node = 0;
    in.usage.nodes = {{0, kGiB}, {1, kGiB}};
    in.usage.h2d_bytes = 5'000'000'000;
    in.usage.cross_node_h2d_bytes = 2'500'000'000;
    in.now_s = 0;
    model.update(in, spans);
    in.usage.h2d_bytes = 30'000'000'000;
    in.usage.cross_node_h2d_bytes = 15'000'000'000;
    in.now_s = 1;
    return model.update(in, spans);
}

NumaSnapshot snc_idle() {
    ui::NumaViewModel model;
    ui::NumaInputs in;
    in.topology = test::snc_topology();
    in.usage.gpu_pci_bus_id = "0000:ab:00.0";
    return model.update(in, ui::SpanStore{});
}

bool inside(const QRectF& inner, const QRectF& outer) { return outer.adjusted(-0.01, -0.01, 0.01, 0.01).contains(inner); }
bool disjoint(const QRectF& a, const QRectF& b) { return !a.adjusted(0.01, 0.01, -0.01, -0.01).intersects(b.adjusted(0.01, 0.01, -0.01, -0.01)); }

std::size_t cpu_count(const MachineTopology& t) {
    std::size_t n = 0;
    for (const auto& p : t.packages)
        for (const auto& c : p.cores) n += c.cpus.size();
    return n;
}

const ui::CpuCell* cell_of(const ui::NumaLayout& layout, int cpu) {
    for (const auto& node : layout.nodes)
        for (const auto& core : node.cores)
            for (const auto& cell : core.cpus)
                if (cell.cpu == cpu) return &cell;
    return nullptr;
}

}  // namespace

class NumaViewTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QImage render(ui::NumaView& view, const QString& name) {
        const QString shots = qEnvironmentVariable("PINSCOPE_NUMA_SHOTS");
        const QString path = shots.isEmpty() ? dir_.filePath(name) : QDir(shots).filePath(name);
        ui::save_widget_image(view, path, 1);
        if (!shots.isEmpty()) ui::save_widget_image(view, QDir(shots).filePath(QStringLiteral("2x-") + name), 2);
        return QImage(path);
    }

    // Every box inside its parent, siblings apart, GPUs clear of packages, all inside the view.
    void check_geometry(ui::NumaView& view, const MachineTopology& topology, std::size_t gpus) {
        const ui::NumaLayout& layout = view.geometry_now();
        const QRectF widget(QPointF(0, 0), QSizeF(view.size()));
        QCOMPARE(layout.packages.size(), topology.packages.size());
        QCOMPARE(layout.nodes.size(), topology.nodes.size());
        std::size_t cells = 0;
        std::vector<QRectF> cores;
        for (const auto& node : layout.nodes) {
            const auto package = std::find_if(layout.packages.begin(), layout.packages.end(),
                                              [&](const ui::PackageBox& p) { return p.package == node.package; });
            QVERIFY(package != layout.packages.end());
            QVERIFY2(inside(node.rect, package->rect), qPrintable(QStringLiteral("node %1 leaves its package").arg(node.node)));
            QVERIFY(inside(node.bar, node.rect));
            for (const auto& core : node.cores) {
                QVERIFY2(inside(core.rect, node.rect), qPrintable(QStringLiteral("core %1 leaves node %2").arg(core.core).arg(node.node)));
                QVERIFY(disjoint(core.rect, node.bar));
                for (const auto& cell : core.cpus) {
                    QVERIFY(inside(cell.rect, core.rect));
                    QVERIFY(cell.rect.width() >= 8 && cell.rect.height() >= 6);
                    ++cells;
                }
                cores.push_back(core.rect);
            }
        }
        QCOMPARE(cells, cpu_count(topology));
        for (std::size_t i = 0; i < cores.size(); ++i)
            for (std::size_t j = i + 1; j < cores.size(); ++j) QVERIFY2(disjoint(cores[i], cores[j]), "two core cells overlap");
        for (std::size_t i = 0; i < layout.nodes.size(); ++i)
            for (std::size_t j = i + 1; j < layout.nodes.size(); ++j) QVERIFY(disjoint(layout.nodes[i].rect, layout.nodes[j].rect));
        for (std::size_t i = 0; i < layout.packages.size(); ++i) {
            QVERIFY(inside(layout.packages[i].rect, layout.machine));
            for (std::size_t j = i + 1; j < layout.packages.size(); ++j)
                QVERIFY(disjoint(layout.packages[i].rect, layout.packages[j].rect));
        }
        QCOMPARE(layout.gpus.size(), gpus);
        for (std::size_t i = 0; i < layout.gpus.size(); ++i) {
            QVERIFY2(inside(layout.gpus[i].rect, layout.machine), "a GPU leaves the drawing");
            for (const auto& package : layout.packages) QVERIFY(disjoint(layout.gpus[i].rect, package.rect));
            for (std::size_t j = i + 1; j < layout.gpus.size(); ++j) QVERIFY(disjoint(layout.gpus[i].rect, layout.gpus[j].rect));
            const ui::NodeBox* node = layout.node_box(layout.gpus[i].node);
            QVERIFY(node != nullptr);
            QVERIFY2(layout.gpus[i].rect.top() > node->rect.bottom(), "a GPU is not below its node");
        }
        QVERIFY(inside(layout.banner, widget) && inside(layout.stats, widget) && inside(layout.content, widget));
    }

private slots:
    void initTestCase() { test::prepare_application(); }

    void withoutATopologyItSaysSo() {
        ui::NumaView view;
        view.resize(800, 500);
        view.show_snapshot({});
        QVERIFY(view.banner_text().startsWith(QStringLiteral("Topology not available yet")));
        QVERIFY(view.geometry_now().packages.empty());
        QVERIFY(!view.cpu_numbers_shown());
        const QImage image = render(view, QStringLiteral("numa-none.png"));
        QVERIFY(test::grey_variance(image, view.geometry_now().content.toRect()) > 10);  // the placeholder text
    }

    void everyMachineFitsWithoutOverlap_data() {
        QTest::addColumn<int>("machine");
        QTest::addColumn<QSize>("size");
        for (const QSize size : {QSize(800, 500), QSize(1100, 680), QSize(1600, 1000)}) {
            QTest::newRow(qPrintable(QStringLiteral("laptop %1x%2").arg(size.width()).arg(size.height()))) << 0 << size;
            QTest::newRow(qPrintable(QStringLiteral("2-socket %1x%2").arg(size.width()).arg(size.height()))) << 1 << size;
            QTest::newRow(qPrintable(QStringLiteral("4-GPU %1x%2").arg(size.width()).arg(size.height()))) << 2 << size;
            QTest::newRow(qPrintable(QStringLiteral("SNC 8-GPU %1x%2").arg(size.width()).arg(size.height()))) << 3 << size;
        }
    }

    void everyMachineFitsWithoutOverlap() {
        QFETCH(int, machine);
        QFETCH(QSize, size);
        const NumaSnapshot snapshot = machine == 0   ? laptop_running()
                                      : machine == 1 ? two_socket_remote()
                                      : machine == 2 ? four_gpu_interleaved()
                                                     : snc_idle();
        ui::NumaView view;
        view.resize(size);
        view.show_snapshot(snapshot);
        check_geometry(view, *snapshot.topology, std::max<std::size_t>(snapshot.topology->gpus.size(), 1));
        if (machine == 0) {  // the emulated device stands for no GPU of the laptop: drawn at its only node
            QCOMPARE(view.geometry_now().gpus.size(), 1u);
            QCOMPARE(view.geometry_now().gpus.front().gpu, -1);
        }
        QVERIFY2(view.cpu_numbers_shown(), "the CPU numbers do not fit");
        const QStringList names{QStringLiteral("laptop"), QStringLiteral("2-socket"), QStringLiteral("4-gpu"), QStringLiteral("snc")};
        render(view, QStringLiteral("numa-%1-%2x%3.png").arg(names[machine]).arg(size.width()).arg(size.height()));
    }

    void theBannerTellsALoadedTopologyFromThisMachine() {
        ui::NumaView view;
        view.show_snapshot(laptop_running());
        QVERIFY2(view.banner_text().contains(QStringLiteral("This machine: laptop, 1 NUMA node")), qPrintable(view.banner_text()));
        QVERIFY(view.banner_text().contains(QStringLiteral("remote binding and placement do not apply")));
        view.show_snapshot(two_socket_remote());
        QVERIFY2(view.banner_text().startsWith(QStringLiteral("Loaded topology: 2-socket-2-gpu.xml")), qPrintable(view.banner_text()));
        QVERIFY(view.banner_text().contains(QStringLiteral("not this machine (placements modelled)")));
    }

    void coresWhereThreadsRanAreColouredAndIdleOnesAreNot() {
        ui::NumaView view;
        view.resize(800, 500);
        view.show_snapshot(two_socket_remote());
        const QImage image = render(view, QStringLiteral("marks.png"));
        const ui::NumaLayout& layout = view.geometry_now();
        const auto corner = [&](int cpu) {  // away from the centred number
            const QRectF cell = layout.to_widget(cell_of(layout, cpu)->rect);
            return image.pixelColor((cell.topLeft() + QPointF(2.5, 2.5)).toPoint());
        };
        QVERIFY2(corner(4).hsvSaturation() > 80, "the pin thread's CPU is not marked");
        QVERIFY2(corner(0).hsvSaturation() > 80, "a worker's CPU is not marked");
        QVERIFY2(corner(40).hsvSaturation() > 30, "the consumer's CPU is not marked");
        QVERIFY2(corner(20).hsvSaturation() < 10 && corner(20).lightness() > 240, "an idle CPU is coloured");
        QVERIFY2(corner(100).hsvSaturation() < 10, "an idle CPU is coloured");
        // A busier thread is a darker mark: worker 3 worked 88 % of the last second, worker 0 70 %.
        QVERIFY2(corner(3).lightness() < corner(0).lightness(), "a busier worker's mark is not darker");
    }

    void tooltipsSayWhatIsUnderTheMouse() {
        ui::NumaView view;
        view.resize(800, 500);
        view.show_snapshot(two_socket_remote());
        const ui::NumaLayout& layout = view.geometry_now();
        const QString pin = view.tooltip_at(layout.to_widget(cell_of(layout, 4)->rect).center());
        QVERIFY2(pin.contains(QStringLiteral("CPU 4</b> · core 4 · package 0 · NUMA node 0")), qPrintable(pin));
        QVERIFY2(pin.contains(QStringLiteral("pin thread, 60 % busy")), qPrintable(pin));
        const QString consumer = view.tooltip_at(layout.to_widget(cell_of(layout, 40)->rect).center());
        QVERIFY2(consumer.contains(QStringLiteral("NUMA node 1 (the GPU's)")) && consumer.contains(QStringLiteral("consumer, 20 % busy")),
                 qPrintable(consumer));
        QVERIFY(view.tooltip_at(layout.to_widget(cell_of(layout, 20)->rect).center()).contains(QStringLiteral("no loader thread ran here")));
        const QString node = view.tooltip_at(layout.to_widget(layout.node_box(0)->bar).center());
        QVERIFY2(node.contains(QStringLiteral("pinned 1.5 GiB here (75 % of the pinned bytes)")) &&
                     node.contains(QStringLiteral("memory 256 GiB")) && node.contains(QStringLiteral("CPUs 0-31,64-95")),
                 qPrintable(node));
        const QString gpu = view.tooltip_at(layout.to_widget(layout.gpu_box(1)->rect).center());
        QVERIFY2(gpu.contains(QStringLiteral("0000:c1:00.0")) && gpu.contains(QStringLiteral("the run's GPU")), qPrintable(gpu));
        QVERIFY(view.tooltip_at(layout.to_widget(layout.gpu_box(0)->rect).center()).contains(QStringLiteral("not used by this run")));
    }

    // The node's label and its tooltip give the same figures in the same words, and an open tooltip
    // follows the run: it said 576 MiB under a label that had moved on to 640 MiB.
    void aNodesTooltipSaysWhatItsLabelSays() {
        ui::NumaView view;
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        NumaSnapshot snapshot = two_socket_remote();
        snapshot.nodes[0].pinned_bytes = 576ull << 20;
        view.show_snapshot(snapshot);
        QCOMPARE(ui::node_pinned_text(snapshot.nodes[0]), QStringLiteral("pinned 576 MiB"));
        QCOMPARE(ui::node_memory_text(snapshot.nodes[0]), QStringLiteral("256 GiB"));
        const QPoint point = view.geometry_now().to_widget(view.geometry_now().node_box(0)->bar).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, point, view.mapToGlobal(point));
        QApplication::sendEvent(&view, &help);
        QVERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("pinned 576 MiB here")), qPrintable(QToolTip::text()));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("memory 256 GiB")), qPrintable(QToolTip::text()));
        snapshot.nodes[0].pinned_bytes = 640ull << 20;
        view.show_snapshot(snapshot);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("pinned 640 MiB here")), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // After the run the pool has released its pages: "pinned 0 B" alone read as a run that pinned
    // nothing (the headless --view numa screenshot of a run shorter than --after).
    void anEndedRunSaysSoAndGivesItsPinnedPeak() {
        ui::NumaViewModel model;
        ui::NumaInputs in;
        in.topology = test::laptop_topology();
        in.usage.nodes = {{0, 576ull << 20}};
        in.pinned_peak_bytes = 640ull << 20;
        const auto text_of = [](const NumaSnapshot& s) {
            QStringList texts;
            for (const auto& piece : ui::numa_stats(s)) texts << piece.text;
            return texts.join(QStringLiteral(" · "));
        };
        const QString running = text_of(model.update(in, ui::SpanStore{}));
        QVERIFY2(running.contains(QStringLiteral("pinned 576 MiB")) && !running.contains(QStringLiteral("ended")), qPrintable(running));
        in.usage.nodes = {{0, 0}};
        in.run_ended = true;
        in.now_s = 1;
        const QString ended = text_of(model.update(in, ui::SpanStore{}));
        QVERIFY2(ended.contains(QStringLiteral("run ended: pinned 0 B now, peak 640 MiB")), qPrintable(ended));
    }
};

PINSCOPE_UI_SUITE(NumaViewTest)
#include "NumaViewTest.moc"
