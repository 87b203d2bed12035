// SPDX-License-Identifier: GPL-3.0-or-later
// A loaded 2-socket topology with the emulated device: spans stand on modelled CPUs of the nodes
// the policies chose, pinned pages are placed by membind in the model, and remote pages cost what
// the profile's cross-node factor says.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/device/HardwareProfile.h"
#include "tests/engine/ExportTestData.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/Eventually.h"

namespace pinscope {
namespace {

LoaderConfig on_two_sockets(LoaderConfig config) {
    config.topology_xml = "2-socket-2-gpu";
    config.gpu_pci_bus_id = "0000:c1:00.0";  // the GPU on the second socket: node 1
    return config;
}

TEST(NumaModel, SpansStandOnTheModelledCpusTheirBindingChose) {
    LoaderConfig config = on_two_sockets(test::small_config(2, true, 40));
    config.bind_workers = {CpuBindPolicy::GpuLocal, {}};
    config.bind_pin_thread = {CpuBindPolicy::Remote, {}};
    config.bind_consumer = {CpuBindPolicy::CpuList, {20}};
    const RunRecord record = test::run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    std::set<int> worker_cpus;
    for (const Span& span : record.spans) {
        switch (span.lane.kind) {
            case LaneKind::Worker:
                worker_cpus.insert(span.cpu);
                EXPECT_EQ(span.numa_node, 1);
                break;
            case LaneKind::PinThread:
                EXPECT_EQ(span.cpu, 0);  // the first CPU of node 0, the remote one
                EXPECT_EQ(span.numa_node, 0);
                break;
            case LaneKind::Consumer:
                EXPECT_EQ(span.cpu, 20);
                EXPECT_EQ(span.numa_node, 1);
                break;
            default: EXPECT_EQ(span.cpu, -1); break;
        }
    }
    EXPECT_EQ(worker_cpus, (std::set<int>{16, 17}));  // worker k on the k-th CPU local to the GPU
    const NumaSummary& numa = record.summary.numa;
    EXPECT_TRUE(numa.from_file);
    EXPECT_TRUE(numa.usage.modelled);
    EXPECT_EQ(numa.usage.gpu_pci_bus_id, "0000:c1:00.0");
    EXPECT_EQ(numa.usage.gpu_node, 1);
    EXPECT_EQ(numa.gpu_name, "NVIDIA H200");
    EXPECT_EQ(record.summary.device.pci_bus_id, "0000:c1:00.0");  // the GPU the emulated device stands for
}

TEST(NumaModel, RemoteMembindPutsPinnedPagesAcrossFromTheGpu) {
    LoaderConfig config = on_two_sockets(test::small_config(2, true, 40));
    config.membind = MemoryPlacement::Remote;
    const RunRecord record = test::run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    const NumaSummary& numa = record.summary.numa;
    ASSERT_EQ(numa.pinned_peak.size(), 2u);
    EXPECT_GT(numa.pinned_peak[0].pinned_bytes, 0u);   // node 0: where membind remote put them
    EXPECT_EQ(numa.pinned_peak[1].pinned_bytes, 0u);   // node 1: the GPU's
    EXPECT_EQ(numa.usage.h2d_bytes, 40u * config.batch_bytes());
    EXPECT_EQ(numa.usage.cross_node_h2d_bytes, numa.usage.h2d_bytes);
    // The pin thread stands on CPU 0 (node 0, unbound): its copies land on its own node.
    EXPECT_EQ(numa.usage.cross_node_host_copy_bytes, 0u);
    EXPECT_GT(numa.usage.host_copy_bytes, 0u);
}

TEST(NumaModel, FirstTouchPutsPagesWhereThePinThreadStands) {
    LoaderConfig config = on_two_sockets(test::small_config(2, true, 40));
    config.bind_pin_thread = {CpuBindPolicy::GpuLocal, {}};
    const RunRecord record = test::run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    const NumaSummary& numa = record.summary.numa;
    ASSERT_EQ(numa.pinned_peak.size(), 2u);
    EXPECT_EQ(numa.pinned_peak[0].pinned_bytes, 0u);
    EXPECT_GT(numa.pinned_peak[1].pinned_bytes, 0u);
    EXPECT_EQ(numa.usage.cross_node_h2d_bytes, 0u);
    // Workers (unbound: CPUs 0 and 1, node 0) collate into pageable memory of their own node;
    // the pin thread on node 1 copies it into node 1's pages: no copy crosses.
    EXPECT_EQ(numa.usage.cross_node_host_copy_bytes, 0u);
}

TEST(NumaModel, InterleaveHalvesTheCrossNodeShare) {
    LoaderConfig config = on_two_sockets(test::small_config(0, true, 20));
    config.membind = MemoryPlacement::Interleave;
    const RunRecord record = test::run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    const NumaUsage& usage = record.summary.numa.usage;
    EXPECT_EQ(usage.cross_node_h2d_bytes * 2, usage.h2d_bytes);
}

// A transfer-bound profile: a 0.25 GB/s link, so that the copy decides the pace by far (8.4 ms a
// batch, against well under a millisecond of anything else), and a cross-node factor of one half.
std::string slow_link_profile(const test::TempDir& dir) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.name = "slow-link";
    for (double& value : profile.h2d_pinned_gb_per_s.values) value = 0.25;
    profile.cross_node_h2d_factor = 0.5;
    profile.numa_source = "test";
    const std::string path = dir.file("slow-link.json");
    std::ofstream(path) << to_json(profile).dump();
    return path;
}

struct CopyPace {
    double batches_per_s = 0;
    TimeNs median_h2d_ns = 0;
};

CopyPace run_on_slow_link(MemoryPlacement membind, const std::string& profile) {
    LoaderConfig config = on_two_sockets(test::small_config(2, true, 30));
    config.device = "emulated:" + profile;
    config.sample_shape = {2, 256, 256};  // 2 MiB batches
    config.pin_mode = PinMode::Worker;
    config.gpu_us_per_batch = 100;
    config.membind = membind;
    const RunRecord record = test::run_to_end(config);
    EXPECT_TRUE(record.summary.error.empty()) << record.summary.error;
    std::vector<TimeNs> copies;
    for (const Span& span : record.spans)
        if (span.stage == Stage::H2D) copies.push_back(span.duration());
    std::sort(copies.begin(), copies.end());
    return {record.summary.metrics.batches_per_s, copies.empty() ? 0 : copies[copies.size() / 2]};
}

TEST(NumaModel, RemotePagesCostTheProfilesCrossNodeFactor) {
    const test::TempDir dir;
    const std::string profile = slow_link_profile(dir);
    const CopyPace local = run_on_slow_link(MemoryPlacement::GpuLocal, profile);
    const CopyPace remote = run_on_slow_link(MemoryPlacement::Remote, profile);
    RecordProperty("local_batches_per_s", std::to_string(local.batches_per_s));
    RecordProperty("remote_batches_per_s", std::to_string(remote.batches_per_s));
    ASSERT_GT(local.median_h2d_ns, 0);
    // Each copy from remote pages lasts twice as long: the model, exactly (to the nanosecond's rounding).
    EXPECT_NEAR(static_cast<double>(remote.median_h2d_ns) / static_cast<double>(local.median_h2d_ns), 2.0, 0.01);
    // And so, transfer-bound, about half the batches per second (the ramp-up makes it a little more).
    EXPECT_GT(remote.batches_per_s, 0.4 * local.batches_per_s) << remote.batches_per_s << " vs " << local.batches_per_s;
    EXPECT_LT(remote.batches_per_s, 0.65 * local.batches_per_s) << remote.batches_per_s << " vs " << local.batches_per_s;
}

TEST(NumaModel, ReconfiguringMovesPagesAndSwitchesTopology) {
    LoaderConfig config = on_two_sockets(test::small_config(2, true));
    config.batches.reset();
    config.seconds = 30;  // stopped below
    config.membind = MemoryPlacement::GpuLocal;
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder));
    EXPECT_EQ(runner.topology(), nullptr);
    runner.start(config);
    const auto first = runner.topology();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->source, "2-socket-2-gpu (shipped sample)");
    // The recorder has a NUMA sample with pinned pages on `node`.
    const auto recorded_on = [&recorder](int node) {
        return test::eventually([&] {
            for (const NumaSample& sample : recorder->snapshot().numa_samples)
                for (const NodeUsage& usage : sample.pinned)
                    if (usage.node == node && usage.pinned_bytes > 0) return true;
            return false;
        });
    };
    ASSERT_TRUE(test::eventually([&] { return runner.numa_usage().h2d_bytes > 0; }));
    ASSERT_TRUE(recorded_on(1));

    LoaderConfig remote = config;
    remote.membind = MemoryPlacement::Remote;
    runner.reconfigure(remote);
    ASSERT_TRUE(test::eventually([&] { return runner.summary().reconfigurations == 1; }));
    ASSERT_TRUE(recorded_on(0));  // remote from the GPU on node 1: pages come to node 0
    EXPECT_EQ(runner.topology(), first);  // the same topology is not loaded again

    LoaderConfig four = remote;
    four.topology_xml = "4-gpu-server";
    four.gpu_pci_bus_id = "0000:b8:00.0";
    runner.reconfigure(four);
    ASSERT_TRUE(test::eventually([&] { return runner.summary().reconfigurations == 2; }));
    runner.stop();
    const RunRecord record = recorder->taken(runner);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    EXPECT_EQ(runner.topology()->source, "4-gpu-server (shipped sample)");
    EXPECT_EQ(runner.numa_usage().gpu_pci_bus_id, "0000:b8:00.0");
    EXPECT_EQ(runner.numa_usage().gpu_node, 1);
    EXPECT_EQ(runner.device_info().pci_bus_id, "0000:b8:00.0");
    // Over the run, pages were on node 1 (local to c1:00.0), then on node 0 (remote from either GPU).
    bool node0 = false;
    bool node1 = false;
    for (const NumaSample& sample : record.numa_samples)
        for (const NodeUsage& node : sample.pinned) {
            node0 |= node.node == 0 && node.pinned_bytes > 0;
            node1 |= node.node == 1 && node.pinned_bytes > 0;
        }
    EXPECT_TRUE(node0);
    EXPECT_TRUE(node1);
    // A topology that the configuration cannot run on is refused at once, naming the field.
    LoaderConfig bad = four;
    bad.topology_xml = "no-such-topology.xml";
    EXPECT_THROW(runner.start(bad), ConfigError);
}

TEST(NumaModel, ShippedProfilesSayWhereTheirFactorsComeFrom) {
    for (const std::string& name : builtin_profile_names()) {
        const HardwareProfile profile = load_profile(name);
        EXPECT_LT(profile.cross_node_h2d_factor, 1.0) << name;
        EXPECT_LT(profile.cross_node_memcpy_factor, 1.0) << name;
        EXPECT_NE(profile.numa_source.find("http"), std::string::npos) << name << ": " << profile.numa_source;
    }
}

}  // namespace
}  // namespace pinscope
