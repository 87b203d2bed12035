// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/ui/NumaFixtures.h"

#include <algorithm>

namespace pinscope::test {

MachineTopology sockets_topology(int packages, int cores, int threads, int node_gib) {
    MachineTopology t;
    const int total_cores = packages * cores;
    for (int p = 0; p < packages; ++p) {
        TopologyPackage package{p, {p}, {}};
        TopologyNode node{p, static_cast<std::uint64_t>(node_gib) << 30, {}};
        for (int c = 0; c < cores; ++c) {
            TopologyCore core{p * cores + c, {}};
            for (int h = 0; h < threads; ++h) core.cpus.push_back(h * total_cores + p * cores + c);
            node.cpus.insert(node.cpus.end(), core.cpus.begin(), core.cpus.end());
            package.cores.push_back(core);
        }
        std::sort(node.cpus.begin(), node.cpus.end());
        t.packages.push_back(package);
        t.nodes.push_back(node);
    }
    return t;
}

namespace {

TopologyGpu gpu(const char* bus, int node, const MachineTopology& t) {
    return {bus, "NVIDIA H200", node, t.nodes[static_cast<std::size_t>(node)].cpus};
}

}  // namespace

std::shared_ptr<const MachineTopology> laptop_topology() {
    MachineTopology t = sockets_topology(1, 4, 2, 16);
    t.source = "this machine";
    t.machine_name = "laptop";
    return std::make_shared<const MachineTopology>(std::move(t));
}

std::shared_ptr<const MachineTopology> two_socket_topology() {
    MachineTopology t = sockets_topology(2, 32, 2, 256);
    t.source = "/opt/pinscope/topologies/2-socket-2-gpu.xml";
    t.from_file = true;
    t.gpus = {gpu(kGpuOnSocket0, 0, t), gpu(kGpuOnSocket1, 1, t)};
    return std::make_shared<const MachineTopology>(std::move(t));
}

std::shared_ptr<const MachineTopology> four_gpu_topology() {
    MachineTopology t = sockets_topology(2, 24, 2, 512);
    t.source = "/opt/pinscope/topologies/4-gpu-server.xml";
    t.from_file = true;
    t.machine_name = "PowerEdge XE8640";
    t.gpus = {gpu("0000:18:00.0", 0, t), gpu("0000:3b:00.0", 0, t), gpu("0000:86:00.0", 1, t), gpu("0000:af:00.0", 1, t)};
    return std::make_shared<const MachineTopology>(std::move(t));
}

std::shared_ptr<const MachineTopology> snc_topology() {
    MachineTopology t = sockets_topology(4, 16, 2, 128);  // four nodes of 16 cores, then two per package
    t.packages = {{0, {0, 1}, {}}, {1, {2, 3}, {}}};
    MachineTopology four = sockets_topology(4, 16, 2, 128);
    for (std::size_t p = 0; p < four.packages.size(); ++p) {
        auto& cores = t.packages[p / 2].cores;
        cores.insert(cores.end(), four.packages[p].cores.begin(), four.packages[p].cores.end());
    }
    t.source = "/data/snc-8-gpu.xml";
    t.from_file = true;
    const char* buses[] = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0", "0000:5d:00.0",
                           "0000:9a:00.0", "0000:ab:00.0", "0000:ba:00.0", "0000:db:00.0"};
    for (int i = 0; i < 8; ++i) t.gpus.push_back(gpu(buses[i], i / 2, t));
    return std::make_shared<const MachineTopology>(std::move(t));
}

Span host_span(LaneKind kind, int cpu, double start_ms, double end_ms, Stage stage, std::uint16_t index) {
    Span s;
    s.start = static_cast<TimeNs>(start_ms * 1e6);
    s.end = static_cast<TimeNs>(end_ms * 1e6);
    s.stage = stage;
    s.lane = {kind, index};
    s.cpu = static_cast<std::int16_t>(cpu);
    s.bytes = 1 << 20;
    return s;
}

NumaUsage two_node_usage(int gpu_node, std::uint64_t pinned0, std::uint64_t pinned1, std::uint64_t h2d, std::uint64_t cross) {
    NumaUsage u;
    u.gpu_pci_bus_id = gpu_node == 0 ? kGpuOnSocket0 : kGpuOnSocket1;
    u.gpu_node = gpu_node;
    u.modelled = true;
    u.nodes = {{0, pinned0}, {1, pinned1}};
    u.h2d_bytes = h2d;
    u.cross_node_h2d_bytes = cross;
    return u;
}

}  // namespace pinscope::test
