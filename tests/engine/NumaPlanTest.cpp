// SPDX-License-Identifier: GPL-3.0-or-later
// Resolving bindings and placements against a topology: the GPU's node on the sample servers,
// CPU lists checked against the machine, remote policies refused on a single node.
#include <gtest/gtest.h>

#include "engine/config/ConfigError.h"
#include "engine/config/LoaderConfig.h"
#include "engine/numa/NumaPlan.h"
#include "engine/topology/CpuList.h"

namespace pinscope {
namespace {

// "0-15,32-47" as the CPU list it names (the config's own parser).
std::vector<int> cpus(const std::string& list) { return parse_cpu_list(list).value(); }

const std::vector<int> kNode0 = cpus("0-15,32-47");
const std::vector<int> kNode1 = cpus("16-31,48-63");

DeviceInfo emulated() { return DeviceInfo{DeviceKind::Emulated, "NVIDIA H200", "h200-pcie5", "", ""}; }

NumaPlan plan_on_two_sockets(LoaderConfig config) {
    config.topology_xml = "2-socket-2-gpu";
    return make_numa_plan(config, load_run_topology(config), emulated());
}

// A machine like the development VM: one node, CPUs 0 and 1.
std::shared_ptr<const MachineTopology> one_node() {
    auto t = std::make_shared<MachineTopology>();
    t->source = "this machine";
    t->nodes = {TopologyNode{0, std::uint64_t{8} << 30, {0, 1}}};
    t->packages = {TopologyPackage{0, {0}, {TopologyCore{0, {0}}, TopologyCore{1, {1}}}}};
    t->index_cpus();
    return t;
}

TEST(NumaPlan, LocalAndRemoteFollowTheGpuOnTheSecondSocket) {
    LoaderConfig config;
    config.gpu_pci_bus_id = "c1:00.0";
    config.bind_workers = {CpuBindPolicy::GpuLocal, {}};
    config.bind_pin_thread = {CpuBindPolicy::Remote, {}};
    config.membind = MemoryPlacement::Remote;
    const NumaPlan plan = plan_on_two_sockets(config);
    EXPECT_TRUE(plan.modelled);
    EXPECT_EQ(plan.gpu_pci_bus_id, "0000:c1:00.0");
    EXPECT_EQ(plan.gpu_node, 1);
    EXPECT_EQ(plan.reference_node, 1);
    EXPECT_EQ(plan.remote_node, 0);
    EXPECT_EQ(plan.workers.cpus, kNode1);
    EXPECT_TRUE(plan.workers.bound);
    EXPECT_EQ(plan.pin_thread.cpus, kNode0);
    EXPECT_FALSE(plan.consumer.bound);
    EXPECT_EQ(plan.consumer.cpus, cpus("0-63"));
    EXPECT_EQ(plan.membind_nodes, std::vector<int>{0});
    // Nothing is placed on this machine for a loaded topology: the pages are placed in the model.
    EXPECT_EQ(plan.device_placement(), PinnedPlacement{});
    EXPECT_EQ(plan.modelled_shares(1), (std::vector<std::pair<int, double>>{{0, 1.0}}));
}

TEST(NumaPlan, TheFirstGpuByDefaultAndLocalMeansItsNode) {
    LoaderConfig config;
    config.bind_consumer = {CpuBindPolicy::GpuLocal, {}};
    config.membind = MemoryPlacement::GpuLocal;
    const NumaPlan plan = plan_on_two_sockets(config);
    EXPECT_EQ(plan.gpu_pci_bus_id, "0000:41:00.0");
    EXPECT_EQ(plan.gpu_node, 0);
    EXPECT_EQ(plan.consumer.cpus, kNode0);
    EXPECT_EQ(plan.membind_nodes, std::vector<int>{0});
}

TEST(NumaPlan, ModelledCpusGoRoundRobinOverTheResolvedSet) {
    LoaderConfig config;
    config.gpu_pci_bus_id = "0000:c1:00.0";
    config.bind_workers = {CpuBindPolicy::GpuLocal, {}};
    const NumaPlan plan = plan_on_two_sockets(config);
    EXPECT_EQ(plan.modelled_cpu(LaneKind::Worker, 0).cpu, 16);
    EXPECT_EQ(plan.modelled_cpu(LaneKind::Worker, 1).cpu, 17);
    EXPECT_EQ(plan.modelled_cpu(LaneKind::Worker, 16).cpu, 48);  // the SMT siblings after the cores
    EXPECT_EQ(plan.modelled_cpu(LaneKind::Worker, 32).cpu, 16);
    EXPECT_EQ(plan.modelled_cpu(LaneKind::Worker, 3).node, 1);
    EXPECT_EQ(plan.modelled_cpu(LaneKind::PinThread, 0).cpu, 0);  // unbound: from CPU 0 up
    EXPECT_EQ(plan.modelled_cpu(LaneKind::PinThread, 0).node, 0);
}

TEST(NumaPlan, InterleaveSpreadsOverEveryNode) {
    LoaderConfig config;
    config.membind = MemoryPlacement::Interleave;
    const NumaPlan plan = plan_on_two_sockets(config);
    EXPECT_EQ(plan.membind_nodes, (std::vector<int>{0, 1}));
    EXPECT_EQ(plan.modelled_shares(0), (std::vector<std::pair<int, double>>{{0, 0.5}, {1, 0.5}}));
}

TEST(NumaPlan, FirstTouchIsWhereTheTouchingThreadStands) {
    const NumaPlan plan = plan_on_two_sockets(LoaderConfig{});
    EXPECT_EQ(plan.modelled_shares(1), (std::vector<std::pair<int, double>>{{1, 1.0}}));
    EXPECT_EQ(plan.device_placement().policy, MemoryPlacement::FirstTouch);
}

TEST(NumaPlan, CpuListsAreCheckedAgainstTheTopology) {
    LoaderConfig config;
    config.bind_workers = {CpuBindPolicy::CpuList, {1, 99}};
    const auto issues = find_numa_issues(config, *one_node());
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "bind_workers");
    EXPECT_NE(issues[0].message().find("CPU 99 does not exist on this machine (CPUs 0-1)"), std::string::npos)
        << issues[0].message();
    config.bind_workers = {CpuBindPolicy::CpuList, {1}};
    EXPECT_TRUE(find_numa_issues(config, *one_node()).empty());
    const NumaPlan plan = make_numa_plan(config, one_node(), emulated());
    EXPECT_EQ(plan.workers.cpus, std::vector<int>{1});
    EXPECT_TRUE(plan.workers.bound);
}

TEST(NumaPlan, RemotePoliciesAreRefusedOnOneNodeWithTheReason) {
    for (const char* field : {"bind_workers", "bind_pin_thread", "bind_consumer"}) {
        LoaderConfig config;
        CpuBinding& binding = std::string(field) == "bind_workers"      ? config.bind_workers
                              : std::string(field) == "bind_pin_thread" ? config.bind_pin_thread
                                                                        : config.bind_consumer;
        binding = {CpuBindPolicy::Remote, {}};
        const auto issues = find_numa_issues(config, *one_node());
        ASSERT_EQ(issues.size(), 1u) << field;
        EXPECT_EQ(issues[0].field, field);
        EXPECT_NE(issues[0].message().find("remote needs a second NUMA node; this machine has one (node 0, CPUs 0-1)"),
                  std::string::npos)
            << issues[0].message();
    }
    for (const MemoryPlacement placement : {MemoryPlacement::Remote, MemoryPlacement::Interleave}) {
        LoaderConfig config;
        config.membind = placement;
        try {
            make_numa_plan(config, one_node(), emulated());
            ADD_FAILURE() << to_string(placement) << " was accepted on one node";
        } catch (const ConfigError& error) {
            EXPECT_EQ(error.issue().field, "membind");
            EXPECT_NE(std::string(error.what()).find(to_string(placement) + " needs a second NUMA node"),
                      std::string::npos)
                << error.what();
        }
    }
}

TEST(NumaPlan, LocalWorksOnOneNodeAndSaysItIsRelativeToNodeZero) {
    LoaderConfig config;
    config.bind_workers = {CpuBindPolicy::GpuLocal, {}};
    config.membind = MemoryPlacement::GpuLocal;
    const NumaPlan plan = make_numa_plan(config, one_node(), emulated());
    EXPECT_FALSE(plan.modelled);
    EXPECT_EQ(plan.gpu_node, -1);
    EXPECT_EQ(plan.reference_node, 0);
    EXPECT_EQ(plan.workers.cpus, (std::vector<int>{0, 1}));
    EXPECT_EQ(plan.device_placement(), (PinnedPlacement{MemoryPlacement::GpuLocal, {0}}));
    ASSERT_EQ(plan.notes.size(), 1u);
    EXPECT_NE(plan.notes[0].find("relative to node 0"), std::string::npos) << plan.notes[0];
}

TEST(NumaPlan, AGpuTheTopologyDoesNotHaveIsRefused) {
    LoaderConfig config;
    config.gpu_pci_bus_id = "0000:c2:00.0";
    config.topology_xml = "2-socket-2-gpu";
    const auto issues = find_numa_issues(config, *load_run_topology(config));
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "gpu_pci_bus_id");
    EXPECT_NE(issues[0].allowed.find("0000:41:00.0, 0000:c1:00.0"), std::string::npos) << issues[0].message();
}

TEST(NumaPlan, ABadTopologyIsAConfigErrorNamingTheField) {
    LoaderConfig config;
    config.topology_xml = "no-such-topology";
    try {
        load_run_topology(config);
        ADD_FAILURE() << "loaded";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "topology_xml");
        EXPECT_NE(std::string(error.what()).find("2-socket-2-gpu"), std::string::npos) << error.what();
    }
}

TEST(NumaPlan, RemoteWithoutAnotherNodeNumberPlansWithoutACrash) {
    // Two nodes that claim one number (loaders refuse such XML) once made remote index an empty list.
    auto t = std::make_shared<MachineTopology>(*one_node());
    t->nodes.push_back(TopologyNode{0, 0, {}});
    t->index_cpus();
    LoaderConfig config;
    config.bind_workers.policy = CpuBindPolicy::Remote;
    const NumaPlan plan = make_numa_plan(config, t, emulated());
    EXPECT_EQ(plan.remote_node, -1);
}

TEST(NumaPlan, RunIssuesIncludeTheTopologyAndTheProfile) {
    LoaderConfig config;
    config.device = "emulated";
    config.topology_xml = "/dev/zero";
    auto issues = find_run_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "topology_xml");
    config.topology_xml = "2-socket-2-gpu";
    config.device = "emulated:/nonexistent/profile.json";
    issues = find_run_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "device");
    config.device = "emulated";
    EXPECT_TRUE(find_run_issues(config).empty());
}

}  // namespace
}  // namespace pinscope
