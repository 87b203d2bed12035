// SPDX-License-Identifier: GPL-3.0-or-later
// An hwloc XML topology file (--topology, topology --xml). Bad input must come out as a
// TopologyError with a short printable message; a topology that loads must have distinct node
// numbers, plan every NUMA policy without a crash, and print as printable text.
#include <algorithm>

#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/numa/NumaPlan.h"
#include "engine/topology/MachineTopology.h"
#include "engine/topology/TopologyTree.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

using namespace pinscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::InputAsFile file;
    static const DeviceInfo device = emulated_device_info(load_profile(kDefaultProfile));
    const std::string& path = file.write(data, size);
    std::shared_ptr<const MachineTopology> topology;
    try {
        topology = std::make_shared<const MachineTopology>(load_topology_xml(path));
    } catch (const TopologyError& error) {
        fuzz::check_message(error.what());
        return 0;
    }
    fuzz::require(!topology->nodes.empty(), "a loaded topology has a node");
    for (std::size_t i = 1; i < topology->nodes.size(); ++i)
        fuzz::require(topology->nodes[i - 1].os_index < topology->nodes[i].os_index, "node numbers ascend, no repeats");
    for (const CpuBinding& binding : {CpuBinding{CpuBindPolicy::GpuLocal, {}}, CpuBinding{CpuBindPolicy::Remote, {}}}) {
        for (const MemoryPlacement membind : {MemoryPlacement::GpuLocal, MemoryPlacement::Remote, MemoryPlacement::Interleave}) {
            LoaderConfig config;
            config.device = "emulated";
            config.topology_xml = path;
            config.bind_workers = config.bind_pin_thread = config.bind_consumer = binding;
            config.membind = membind;
            try {
                const NumaPlan plan = make_numa_plan(config, topology, device);
                (void)plan.modelled_cpu(LaneKind::Worker, 7);
                (void)plan.modelled_shares(plan.reference_node);
            } catch (const ConfigError& error) {
                fuzz::check_message(error.what());
            }
        }
    }
    const TopologyGpu* gpu = topology->gpus.empty() ? nullptr : &topology->gpus.front();
    fuzz::check_message(format_topology_tree(*topology, gpu, "no GPU"), true);
    return 0;
}
