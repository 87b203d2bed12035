// SPDX-License-Identifier: GPL-3.0-or-later
// Where a real run's pageable batches are: read back, but never so often that the reading slows
// the pipeline, and never on a machine whose pages have nowhere else to be.
#include <gtest/gtest.h>

#include <vector>

#include "engine/numa/NumaTracker.h"
#include "engine/topology/CurrentCpu.h"

namespace pinscope {
namespace {

// This machine as the run sees it (not a loaded topology), with `nodes` NUMA nodes of two CPUs.
std::shared_ptr<const NumaPlan> real_plan(int nodes) {
    auto topology = std::make_shared<MachineTopology>();
    for (int n = 0; n < nodes; ++n) topology->nodes.push_back({n, 0, {2 * n, 2 * n + 1}});
    topology->index_cpus();
    auto plan = std::make_shared<NumaPlan>();
    plan->topology = topology;
    plan->reference_node = 0;
    plan->remote_node = nodes > 1 ? 1 : -1;
    return plan;
}

// Says every page it is asked about is on `node`, and counts the asking.
struct CountingReader {
    int node = 1;
    int reads = 0;
    NumaTracker::PageReader reader() {
        return [this](const void*, std::size_t) {
            ++reads;
            PageSample sample;
            sample.sampled = 4;
            sample.nodes = {{node, 4}};
            return sample;
        };
    }
};

// The calling thread stands on `node` for the scope (as a thread bound there would).
struct StandOn {
    explicit StandOn(int node) { set_modelled_host_cpu({2 * node, node}); }
    ~StandOn() { set_modelled_host_cpu({}); }
};

TEST(NumaTracker, OneNodeMachineNeverReadsPagesAndCountsNothingAsCrossNode) {
    CountingReader pages{.node = 0};
    NumaTracker tracker(real_plan(1), pages.reader());
    std::vector<std::byte> batch(4096);
    const StandOn here(0);
    for (int i = 0; i < 50; ++i) {
        tracker.count_host_copy(batch.data(), batch.size(), false);
        EXPECT_EQ(tracker.count_h2d({batch.data(), batch.size(), false}, 0), 0.0);
    }
    EXPECT_EQ(pages.reads, 0);
    const NumaUsage usage = tracker.usage();
    EXPECT_EQ(usage.host_copy_bytes, 50u * batch.size());
    EXPECT_EQ(usage.cross_node_host_copy_bytes, 0u);
    EXPECT_EQ(usage.cross_node_h2d_bytes, 0u);
}

TEST(NumaTracker, PageableBatchesAreReadBackSparinglyAndStillCountedWhereTheyAre) {
    CountingReader pages{.node = 1};  // every batch's pages on node 1, away from the GPU's node 0
    NumaTracker tracker(real_plan(2), pages.reader());
    std::vector<std::byte> batch(4096);
    constexpr int kBatches = 200;
    {
        const StandOn worker(0);  // a collate on node 0 into pages on node 1: cross-node
        for (int i = 0; i < kBatches; ++i) tracker.count_host_copy(batch.data(), batch.size(), false);
    }
    for (int i = 0; i < kBatches; ++i) EXPECT_EQ(tracker.count_h2d({batch.data(), batch.size(), false}, 1), 1.0);
    // Each writer node's first batch is read; the rest reuse a read made within the last 20 ms
    // (a few more reads only if this thread stalls that long between batches).
    EXPECT_GE(pages.reads, 2);
    EXPECT_LE(pages.reads, 10);
    const NumaUsage usage = tracker.usage();
    EXPECT_EQ(usage.cross_node_host_copy_bytes, usage.host_copy_bytes);
    EXPECT_EQ(usage.cross_node_h2d_bytes, usage.h2d_bytes);
}

TEST(NumaTracker, ANewPlanReadsPageableBatchesAfresh) {
    CountingReader pages{.node = 1};
    NumaTracker tracker(real_plan(2), pages.reader());
    std::vector<std::byte> batch(4096);
    tracker.count_h2d({batch.data(), batch.size(), false}, 1);
    tracker.set_plan(real_plan(2), false);
    pages.node = 0;  // the batches now land on the GPU's node
    EXPECT_EQ(tracker.count_h2d({batch.data(), batch.size(), false}, 1), 0.0);
    EXPECT_EQ(pages.reads, 2);
}

}  // namespace
}  // namespace pinscope
