// SPDX-License-Identifier: GPL-3.0-or-later
// The NUMA view model reads the right things out of the run: each kind of thread is marked on the
// CPUs its spans ran on in the last second, busy for the time it worked there (not while it
// waited); pinned bytes land on their nodes; cross-node traffic is a share and, between samples a
// second apart, a rate; the run's GPU is found by its bus id, and a one-node machine puts it there.
#include <QTest>

#include "tests/ui/NumaFixtures.h"
#include "tests/ui/UiSuite.h"
#include "ui/model/SpanStore.h"
#include "ui/numa/NumaText.h"
#include "ui/numa/NumaViewModel.h"

using namespace pinscope;
using ui::HostLane;

namespace {

ui::NumaInputs inputs(std::shared_ptr<const MachineTopology> topology, NumaUsage usage, double now_s) {
    ui::NumaInputs in;
    in.topology = std::move(topology);
    in.usage = std::move(usage);
    in.now_s = now_s;
    return in;
}

std::vector<int> cpus_of(const ui::NumaSnapshot& s, HostLane lane) {
    std::vector<int> cpus;
    for (const ui::CpuUse& use : s.lanes[static_cast<std::size_t>(lane)]) cpus.push_back(use.cpu);
    return cpus;
}

}  // namespace

class NumaViewModelTest : public QObject {
    Q_OBJECT

private slots:
    void withoutATopologyNothingIsAvailable() {
        ui::NumaViewModel model;
        ui::SpanStore spans;
        spans.add({test::host_span(LaneKind::Worker, 3, 0, 100, Stage::Load)});
        const ui::NumaSnapshot& s = model.update(inputs(nullptr, test::two_node_usage(1, 1, 2, 3, 4), 1), spans);
        QVERIFY(s.topology == nullptr);
        QVERIFY(s.nodes.empty());
        QVERIFY(s.lanes[0].empty());
        QVERIFY(!s.gpu_node_known());
    }

    void marksTheCpusEachKindOfThreadRanOnInTheLastSecond() {
        ui::SpanStore spans;
        spans.add({
            test::host_span(LaneKind::Worker, 70, 0, 300, Stage::Load, 0),        // older than the last second: not marked
            test::host_span(LaneKind::Worker, 1, 1500, 2000, Stage::Load, 0),     // half the window busy
            test::host_span(LaneKind::Worker, 2, 1800, 2000, Stage::Collate, 1),  // a fifth
            test::host_span(LaneKind::Worker, 2, 1000, 1100, Stage::Load, 2),     // another worker on the same CPU
            test::host_span(LaneKind::PinThread, 33, 1200, 1950, Stage::Pin),
            test::host_span(LaneKind::Consumer, 40, 1100, 1900, Stage::Wait),     // there, but waiting
            test::host_span(LaneKind::Consumer, 40, 1900, 2000, Stage::Staging),
        });
        Span h2d = test::host_span(LaneKind::CopyStream, -1, 1000, 2000, Stage::H2D);
        spans.add({h2d});
        ui::NumaViewModel model;
        const ui::NumaSnapshot& s = model.update(inputs(test::two_socket_topology(), test::two_node_usage(1, 0, 0, 0, 0), 5), spans);
        QCOMPARE(cpus_of(s, HostLane::Workers), (std::vector<int>{1, 2}));
        QCOMPARE(cpus_of(s, HostLane::PinThread), (std::vector<int>{33}));
        QCOMPARE(cpus_of(s, HostLane::Consumer), (std::vector<int>{40}));
        QCOMPARE(s.busy_on(HostLane::Workers, 1), 0.5);
        QCOMPARE(s.busy_on(HostLane::Workers, 2), 0.3);
        QCOMPARE(s.busy_on(HostLane::PinThread, 33), 0.75);
        QCOMPARE(s.busy_on(HostLane::Consumer, 40), 0.1);
        QVERIFY(s.busy_on(HostLane::Workers, 70) < 0);
        QVERIFY(s.busy_on(HostLane::PinThread, 1) < 0);
    }

    void pinnedBytesGoToTheirNodesAndTheGpuIsFoundByItsBusId() {
        ui::NumaViewModel model;
        NumaUsage usage = test::two_node_usage(1, 3u << 30, 1u << 30, 0, 0);
        usage.gpu_node = -1;  // only the bus id says where the GPU is
        const ui::NumaSnapshot& s = model.update(inputs(test::two_socket_topology(), usage, 1), ui::SpanStore{});
        QCOMPARE(s.nodes.size(), 2u);
        QCOMPARE(s.node(0)->pinned_bytes, 3ull << 30);
        QCOMPARE(s.node(1)->pinned_bytes, 1ull << 30);
        QCOMPARE(s.node(0)->memory_bytes, 256ull << 30);
        QCOMPARE(s.pinned_total(), 4ull << 30);
        QVERIFY(s.gpu.in_topology);
        QCOMPARE(s.gpu.pci_bus_id, std::string(test::kGpuOnSocket1));
        QCOMPARE(s.gpu.node, 1);
        QVERIFY(!s.node(0)->gpu_local && s.node(1)->gpu_local);
        QVERIFY(!s.single_node());
    }

    void theDeviceBusIdServesWhileTheUsageHasNoneInAnySpelling() {
        ui::NumaViewModel model;
        ui::NumaInputs in = inputs(test::four_gpu_topology(), {}, 1);
        in.device_pci_bus_id = "0000:3B:00.0";
        const ui::NumaSnapshot& s = model.update(in, ui::SpanStore{});
        QVERIFY(s.gpu.in_topology);
        QCOMPARE(s.gpu.pci_bus_id, std::string("0000:3b:00.0"));
        QCOMPARE(s.gpu.node, 0);
        QCOMPARE(s.gpu.name, std::string("NVIDIA H200"));
    }

    // hwloc reads this machine's GPUs from sysfs, which has no names: the run's GPU is named after
    // the device, the others stay "GPU".
    void aGpuWithoutANameInTheTopologyTakesTheDevicesName() {
        MachineTopology machine = *test::two_socket_topology();
        for (TopologyGpu& gpu : machine.gpus) gpu.name.clear();
        ui::NumaViewModel model;
        ui::NumaInputs in = inputs(std::make_shared<const MachineTopology>(machine), {}, 1);
        in.device_pci_bus_id = test::kGpuOnSocket1;
        in.device_name = "NVIDIA H200";
        const ui::NumaSnapshot& s = model.update(in, ui::SpanStore{});
        QCOMPARE(ui::gpu_name(s, 1), QStringLiteral("NVIDIA H200"));
        QCOMPARE(ui::gpu_name(s, 0), QStringLiteral("GPU"));
        QVERIFY(ui::gpu_tooltip(s, 1).contains(QStringLiteral("NVIDIA H200")));
    }

    void aGpuOfUnknownNodeIsSaidSo() {
        ui::NumaViewModel model;
        ui::NumaInputs in = inputs(test::two_socket_topology(), {}, 1);
        in.usage.h2d_bytes = 100;
        in.usage.cross_node_h2d_bytes = 50;
        in.device_pci_bus_id = "0000:99:00.0";  // not in the topology
        const ui::NumaSnapshot& s = model.update(in, ui::SpanStore{});
        QVERIFY(!s.gpu.in_topology);
        QVERIFY(!s.gpu_node_known());
        QVERIFY(s.cross_sources.empty());
    }

    void onOneNodeTheGpuIsThere() {
        ui::NumaViewModel model;
        ui::NumaInputs in = inputs(test::laptop_topology(), {}, 1);
        in.device_name = "emulated";
        const ui::NumaSnapshot& s = model.update(in, ui::SpanStore{});
        QVERIFY(s.single_node());
        QVERIFY(!s.gpu.in_topology);
        QCOMPARE(s.gpu.node, 0);
        QVERIFY(s.node(0)->gpu_local);
    }

    void crossNodeTrafficIsAShareAndARate() {
        ui::NumaViewModel model;
        const auto topology = test::two_socket_topology();
        NumaUsage usage = test::two_node_usage(1, 1u << 30, 0, 10'000'000'000, 2'000'000'000);
        usage.host_copy_bytes = 8'000'000'000;
        usage.cross_node_host_copy_bytes = 0;
        ui::NumaSnapshot s = model.update(inputs(topology, usage, 100), ui::SpanStore{});
        QVERIFY(!s.h2d.rate_known);  // one sample: no rate yet, the run's share
        QCOMPARE(s.h2d.cross_share(), 0.2);
        QCOMPARE(s.cross_sources, (std::vector<int>{0}));  // the node holding the pinned pages
        usage.h2d_bytes += 20'000'000'000;                 // 20 GB in two seconds, 15 GB of it across
        usage.cross_node_h2d_bytes += 15'000'000'000;
        usage.host_copy_bytes += 4'000'000'000;
        usage.cross_node_host_copy_bytes += 1'000'000'000;
        s = model.update(inputs(topology, usage, 102), ui::SpanStore{});
        QVERIFY(s.h2d.rate_known);
        QCOMPARE(s.h2d.bytes_per_s, 10e9);
        QCOMPARE(s.h2d.cross_bytes_per_s, 7.5e9);
        QCOMPARE(s.h2d.cross_share(), 0.75);  // the last seconds, not the run
        QCOMPARE(s.h2d.bytes, 30'000'000'000ull);
        QCOMPARE(s.host_copy.cross_bytes_per_s, 0.5e9);
        QCOMPARE(s.host_copy.cross_share(), 0.25);
    }

    void ratesCoverAboutTheLastSecond() {
        ui::NumaViewModel model;
        const auto topology = test::two_socket_topology();
        NumaUsage usage = test::two_node_usage(1, 0, 0, 0, 0);
        for (int i = 0; i <= 30; ++i) {  // 1 GB/s for two seconds, then 4 GB/s for one
            usage.h2d_bytes += i <= 20 ? 100'000'000 : 400'000'000;
            model.update(inputs(topology, usage, i / 10.0), ui::SpanStore{});
        }
        QVERIFY(std::abs(model.snapshot().h2d.bytes_per_s - 4e9) < 1);
    }

    void aNewRunStartsTheRatesAgain() {
        ui::NumaViewModel model;
        const auto topology = test::two_socket_topology();
        model.update(inputs(topology, test::two_node_usage(1, 0, 0, 50'000'000'000, 0), 10), ui::SpanStore{});
        const ui::NumaSnapshot& s = model.update(inputs(topology, test::two_node_usage(1, 0, 0, 1'000'000'000, 0), 11), ui::SpanStore{});
        QVERIFY(!s.h2d.rate_known);  // the counters went back: a new run, not negative traffic
        QCOMPARE(s.h2d.bytes, 1'000'000'000ull);
    }

    void withoutPinnedPagesTheCrossingComesFromWhereTheWorkersRan() {
        ui::NumaViewModel model;
        ui::SpanStore spans;
        spans.add({test::host_span(LaneKind::Worker, 70, 0, 500, Stage::Collate)});  // CPU 70: node 0
        NumaUsage usage = test::two_node_usage(1, 0, 0, 1000, 900);
        const ui::NumaSnapshot& s = model.update(inputs(test::two_socket_topology(), usage, 1), spans);
        QCOMPARE(s.cross_sources, (std::vector<int>{0}));
        QVERIFY(s.h2d.cross_share() > 0.89);
    }
};

PINSCOPE_UI_SUITE(NumaViewModelTest)
#include "NumaViewModelTest.moc"
