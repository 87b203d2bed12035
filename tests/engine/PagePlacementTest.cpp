// SPDX-License-Identifier: GPL-3.0-or-later
// Placement read back on this machine: pages bound to a node are found there by move_pages, first
// touch is readable too, pages never touched count as unknown, and a run's pinned bytes by node
// come from what was read.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include <gtest/gtest.h>

#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/numa/PageLocations.h"
#include "engine/numa/PagePlacement.h"
#include "engine/numa/ThreadPlacement.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

const std::size_t kPage = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

int first_node() { return this_machine_topology()->nodes.front().os_index; }

// Anonymous pages, unmapped at the end.
struct Pages {
    explicit Pages(std::size_t count) : bytes(count * kPage), ptr(map_pages(bytes)) {}
    ~Pages() { munmap(ptr, bytes); }
    std::size_t bytes;
    void* ptr;
};

// move_pages can be refused (seccomp, no NUMA in the kernel): the tests say so instead of failing.
bool readable(const PageSample& sample) {
    return sample.error.find(std::strerror(EPERM)) == std::string::npos &&
           sample.error.find(std::strerror(ENOSYS)) == std::string::npos;
}

TEST(PageLocations, PagesNeverTouchedAreUnknownNotNodeZero) {
    const Pages pages(16);
    const PageSample sample = sample_page_nodes(pages.ptr, pages.bytes);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.sampled, 16u);
    EXPECT_EQ(sample.unknown, 16u);
    EXPECT_TRUE(sample.nodes.empty());
    EXPECT_DOUBLE_EQ(sample.share_off(first_node()), 0.0);
}

TEST(PageLocations, SamplesAtMostTheAskedNumberOfPagesFromFirstToLast) {
    const Pages pages(1000);
    touch_pages(static_cast<char*>(pages.ptr) + 999 * kPage, kPage);  // only the last page
    const PageSample sample = sample_page_nodes(pages.ptr, pages.bytes, 64);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.sampled, 64u);
    EXPECT_EQ(sample.unknown, 63u);
    EXPECT_EQ(sample.nodes.size(), 1u);
}

TEST(PagePlacement, PagesBoundToTheLocalNodeAreReadBackThere) {
    const Pages pages(256);
    place_pages(pages.ptr, pages.bytes, PinnedPlacement{MemoryPlacement::GpuLocal, {first_node()}}, false);
    touch_pages(pages.ptr, pages.bytes);
    const PageSample sample = sample_page_nodes(pages.ptr, pages.bytes);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.sampled, 64u);
    EXPECT_EQ(sample.unknown, 0u);
    EXPECT_EQ(sample.pages_on(first_node()), 64u);
}

TEST(PagePlacement, InterleaveUsesEveryNodeOfThisMachine) {
    std::vector<int> nodes;
    for (const TopologyNode& node : this_machine_topology()->nodes) nodes.push_back(node.os_index);
    const Pages pages(128);
    place_pages(pages.ptr, pages.bytes, PinnedPlacement{MemoryPlacement::Interleave, nodes}, false);
    touch_pages(pages.ptr, pages.bytes);
    const PageSample sample = sample_page_nodes(pages.ptr, pages.bytes);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.unknown, 0u);
    EXPECT_EQ(sample.nodes.size(), nodes.size());  // page by page over every node
}

TEST(PagePlacement, FirstTouchIsReadableToo) {
    const Pages pages(32);
    HostCpu toucher;
    std::thread([&] {
        touch_pages(pages.ptr, pages.bytes);
        toucher = current_host_cpu();
    }).join();
    const PageSample sample = sample_page_nodes(pages.ptr, pages.bytes);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.unknown, 0u);
    if (this_machine_topology()->single_node()) {
        EXPECT_EQ(sample.pages_on(toucher.node), 32u);
    }
}

TEST(PagePlacement, ANodeThatDoesNotExistIsADeviceErrorNamingIt) {
    const Pages pages(4);
    try {
        place_pages(pages.ptr, pages.bytes, PinnedPlacement{MemoryPlacement::Remote, {1000}}, false);
        ADD_FAILURE() << "mbind to node 1000 succeeded";
    } catch (const DeviceError& error) {
        EXPECT_NE(std::string(error.what()).find("mbind (remote on NUMA node 1000)"), std::string::npos) << error.what();
    }
}

TEST(PagePlacement, TheEmulatedDevicePlacesItsPinnedBlocks) {
    EmulatedDevice device(load_profile(kDefaultProfile), HostMode::Real);
    device.set_pinned_placement(PinnedPlacement{MemoryPlacement::GpuLocal, {first_node()}});
    const PinnedAllocation block = device.allocate_pinned(64 * kPage);
    const PageSample sample = sample_page_nodes(block.ptr, block.bytes);
    device.free_pinned(block);
    if (!readable(sample)) GTEST_SKIP() << sample.error;
    EXPECT_EQ(sample.unknown, 0u);  // locked, so faulted in
    EXPECT_EQ(sample.pages_on(first_node()), sample.sampled);
}

TEST(PagePlacement, ARunsPinnedBytesByNodeAreReadBack) {
    LoaderConfig config = test::small_config(2, true, 40);
    config.host = HostMode::Real;
    config.membind = MemoryPlacement::GpuLocal;
    const RunRecord record = test::run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    const NumaSummary& numa = record.summary.numa;
    EXPECT_EQ(numa.topology_source, "this machine");
    const PageSample probe = sample_page_nodes(&record, sizeof record);
    if (!readable(probe)) GTEST_SKIP() << probe.error;
    ASSERT_FALSE(numa.pinned_peak.empty());
    std::uint64_t on_first = 0;
    std::uint64_t elsewhere = 0;
    for (const NodeUsage& node : numa.pinned_peak) (node.node == first_node() ? on_first : elsewhere) += node.pinned_bytes;
    // 48 KiB batches in 64 KiB blocks: a peak of at least one block, all on the GPU-local node.
    EXPECT_GE(on_first, 64u * 1024u);
    EXPECT_EQ(elsewhere, 0u);
    EXPECT_EQ(numa.usage.cross_node_h2d_bytes, 0u);
    EXPECT_EQ(numa.usage.h2d_bytes, 40u * config.batch_bytes());
    // The footprint over time went into the record for numa.csv.
    ASSERT_FALSE(record.numa_samples.empty());
}

}  // namespace
}  // namespace pinscope
