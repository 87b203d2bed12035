// SPDX-License-Identifier: GPL-3.0-or-later
// Pinned pages placed on a real GPU's machine: mapped, bound to the GPU's NUMA node, touched, then
// registered with CUDA; the pages are read back on that node, the GPU receives the bytes, and
// every registered byte is given back.
#include "engine/numa/PageLocations.h"
#include "engine/topology/MachineTopology.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;
using test::fill_random;

class CudaPlacement : public CudaDeviceTest {};

TEST_F(CudaPlacement, PlacedBlocksAreOnTheirNodeAndCopyCorrectly) {
    const auto machine = this_machine_topology();
    const TopologyGpu* gpu = machine->find_gpu(device->info().pci_bus_id);
    const int node = gpu != nullptr && gpu->node >= 0 ? gpu->node : machine->nodes.front().os_index;
    RecordProperty("gpu_node", std::to_string(gpu != nullptr ? gpu->node : -1));
    constexpr std::size_t kBytes = 16 << 20;
    device->prepare(kBytes);
    for (const MemoryPlacement policy : {MemoryPlacement::GpuLocal, MemoryPlacement::Interleave}) {
        std::vector<int> nodes{node};
        if (policy == MemoryPlacement::Interleave) {
            nodes.clear();
            for (const TopologyNode& n : machine->nodes) nodes.push_back(n.os_index);
        }
        device->set_pinned_placement(PinnedPlacement{policy, nodes});
        const PinnedAllocation block = device->allocate_pinned(kBytes);
        const PageSample sample = sample_page_nodes(block.ptr, block.bytes);
        EXPECT_TRUE(sample.error.empty()) << sample.error;
        EXPECT_EQ(sample.unknown, 0u) << to_string(policy);
        if (policy == MemoryPlacement::GpuLocal) {
            EXPECT_EQ(sample.pages_on(node), sample.sampled);
        } else {
            EXPECT_EQ(sample.nodes.size(), nodes.size());
        }
        fill_random(block.ptr, kBytes);
        const std::uint64_t sent = consume_checksum(block.ptr, kBytes);
        const OpId copy = device->copy_to_device({block.ptr, kBytes, true}, 0);
        const OpId compute = device->launch_compute(copy, 0, 0);
        EXPECT_EQ(device->kernel_record(compute).checksum, sent) << to_string(policy);
        device->synchronize();
        std::vector<CompletedOp> done;
        device->collect_completed(done);
        device->free_pinned(block);
    }
    EXPECT_EQ(cuda_pinned_bytes_live(), 0u);
}

}  // namespace
}  // namespace pinscope
