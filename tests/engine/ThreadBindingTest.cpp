// SPDX-License-Identifier: GPL-3.0-or-later
// Bindings really applied on this machine: a bound thread runs inside its CPU set (sched_getcpu),
// and so does every span of a bound run; modelled CPUs are only for loaded topologies.
#include <pthread.h>
#include <sched.h>

#include <thread>

#include <gtest/gtest.h>

#include "engine/numa/NumaPlan.h"
#include "engine/numa/ThreadPlacement.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

// The last CPU this process may run on: binding to it is a real change on any machine.
int last_allowed_cpu() {
    const std::vector<int> cpus = this_machine_topology()->all_cpus();
    return cpus.empty() ? 0 : cpus.back();
}

NumaPlan plan_binding_all_to(int cpu) {
    LoaderConfig config;
    config.bind_workers = config.bind_pin_thread = config.bind_consumer = {CpuBindPolicy::CpuList, {cpu}};
    return make_numa_plan(config, this_machine_topology(), DeviceInfo{});
}

std::vector<int> affinity_of_this_thread() {
    cpu_set_t set;
    CPU_ZERO(&set);
    pthread_getaffinity_np(pthread_self(), sizeof set, &set);
    std::vector<int> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    return cpus;
}

TEST(ThreadBinding, ABoundThreadRunsInsideItsSetAndGetsItsOldSetBack) {
    const int cpu = last_allowed_cpu();
    const NumaPlan plan = plan_binding_all_to(cpu);
    std::thread([&] {
        const std::vector<int> before = affinity_of_this_thread();
        {
            const ThreadPlacementScope placement(&plan, LaneKind::Worker, 0);
            EXPECT_EQ(affinity_of_this_thread(), std::vector<int>{cpu});
            for (int i = 0; i < 100; ++i) {
                std::this_thread::yield();
                EXPECT_EQ(sched_getcpu(), cpu);
            }
            EXPECT_EQ(current_host_cpu().cpu, cpu);
            EXPECT_EQ(current_host_cpu().node, this_machine_topology()->node_of_cpu(cpu));
        }
        EXPECT_EQ(affinity_of_this_thread(), before);
    }).join();
}

TEST(ThreadBinding, UnboundLeavesTheThreadAlone) {
    const NumaPlan plan = make_numa_plan(LoaderConfig{}, this_machine_topology(), DeviceInfo{});
    std::thread([&] {
        const std::vector<int> before = affinity_of_this_thread();
        const ThreadPlacementScope placement(&plan, LaneKind::Consumer, 0);
        EXPECT_EQ(affinity_of_this_thread(), before);
    }).join();
}

TEST(ThreadBinding, EverySpanOfABoundRunRanOnItsCpu) {
    const int cpu = last_allowed_cpu();
    for (const std::uint32_t workers : {0u, 2u}) {
        LoaderConfig config = test::small_config(workers, true, 40);
        config.host = HostMode::Real;  // real work, so that the threads really run somewhere
        config.bind_workers = config.bind_pin_thread = config.bind_consumer = {CpuBindPolicy::CpuList, {cpu}};
        const RunRecord record = test::run_to_end(config);
        ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
        std::size_t host_spans = 0;
        for (const Span& span : record.spans) {
            if (is_device_lane(span.lane.kind)) continue;
            ++host_spans;
            EXPECT_EQ(span.cpu, cpu) << lane_name(span.lane) << " " << to_string(span.stage);
            EXPECT_EQ(span.numa_node, this_machine_topology()->node_of_cpu(cpu));
        }
        EXPECT_GT(host_spans, 40u);
        EXPECT_FALSE(record.summary.numa.usage.modelled);
    }
}

TEST(ThreadBinding, AModelledCpuIsOnlyForLoadedTopologies) {
    LoaderConfig config;
    config.topology_xml = "2-socket-2-gpu";
    config.gpu_pci_bus_id = "c1:00.0";
    config.bind_workers = {CpuBindPolicy::GpuLocal, {}};
    const NumaPlan plan = make_numa_plan(config, load_run_topology(config), DeviceInfo{});
    std::thread([&] {
        const std::vector<int> before = affinity_of_this_thread();
        {
            const ThreadPlacementScope placement(&plan, LaneKind::Worker, 2);
            EXPECT_EQ(current_host_cpu().cpu, 18);
            EXPECT_EQ(current_host_cpu().node, 1);
            EXPECT_EQ(affinity_of_this_thread(), before);  // nothing is bound on this machine
        }
        // Back on this machine: a CPU it has, with its node.
        const HostCpu after = current_host_cpu();
        const std::vector<int> cpus = this_machine_topology()->all_cpus();
        EXPECT_NE(std::find(cpus.begin(), cpus.end(), after.cpu), cpus.end()) << after.cpu;
        EXPECT_EQ(after.node, this_machine_topology()->node_of_cpu(after.cpu));
    }).join();
}

}  // namespace
}  // namespace pinscope
