// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/TopologyCommand.h"

#include <algorithm>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/topology/MachineTopology.h"
#include "engine/topology/TopologyTree.h"

namespace pinscope::cli {

namespace {

std::string gpu_list(const MachineTopology& topology) {
    std::string list;
    for (const TopologyGpu& gpu : topology.gpus) list += (list.empty() ? "" : ", ") + gpu.pci_bus_id;
    return list;
}

// This machine's GPU for the locality line: the first CUDA device, found on the tree by its PCI
// bus id (CUDA_VISIBLE_DEVICES renumbers devices; bus ids stay). Null with `why` when there is none.
TopologyGpu* cuda_gpu_on(MachineTopology& topology, std::string& why) {
    const CudaDeviceList cuda = list_cuda_devices();
    if (cuda.devices.empty()) {
        why = topology.gpus.empty() ? "no NVIDIA GPU on this machine: " + cuda.why_none
                                    : "no CUDA GPU to use (" + cuda.why_none + "); hwloc lists " + gpu_list(topology);
        return nullptr;
    }
    const DeviceInfo& first = cuda.devices.front();
    const std::string bus_id = normalize_pci_bus_id(first.pci_bus_id);
    const auto gpu = std::find_if(topology.gpus.begin(), topology.gpus.end(),
                                  [&](const TopologyGpu& g) { return g.pci_bus_id == bus_id; });
    if (gpu == topology.gpus.end()) {
        why = "GPU cuda:0 (" + first.name + ", " + first.pci_bus_id +
              ") is not on hwloc's tree, so its NUMA node is unknown";
        return nullptr;
    }
    if (gpu->name.empty()) gpu->name = first.name;  // hwloc reads PCI devices from sysfs, which has no names
    return &*gpu;
}

}  // namespace

TopologyCommand::TopologyCommand(CLI::App& app)
    : command_(app.add_subcommand("topology", "Show the machine tree: NUMA nodes, CPUs, GPUs and the GPU's locality")) {
    command_->add_option("--xml", xml_,
                         "an hwloc XML topology instead of this machine: a file, or a shipped one (" +
                             shipped_topology_list() + ")")
        ->type_name("FILE|NAME");
    command_->add_option("--gpu", gpu_, "the GPU whose locality to show, by PCI bus id (default: the first CUDA "
                                        "device on this machine, the first GPU of a loaded topology)")
        ->type_name("BUSID");
}

bool TopologyCommand::selected() const { return command_->parsed(); }

int TopologyCommand::execute() const {
    MachineTopology topology;
    try {
        topology = xml_.empty() ? *this_machine_topology() : load_topology(xml_);
    } catch (const TopologyError& error) {
        throw UsageError(std::string("--xml: ") + error.what());
    }
    const TopologyGpu* gpu = nullptr;
    std::string no_gpu;
    if (!gpu_.empty()) {
        if (normalize_pci_bus_id(gpu_).empty())
            reject_flag("--gpu", gpu_, "a PCI bus id such as 0000:c1:00.0");
        gpu = topology.find_gpu(gpu_);
        if (gpu == nullptr)
            reject_flag("--gpu", gpu_,
                        (topology.gpus.empty() ? "no --gpu: " + topology.source + " has no NVIDIA GPU"
                                                    : "one of the GPUs of " + topology.source + ": " + gpu_list(topology)));
    } else if (topology.from_file) {
        if (!topology.gpus.empty()) gpu = &topology.gpus.front();
        no_gpu = "no NVIDIA GPU in this topology";
    } else {
        gpu = cuda_gpu_on(topology, no_gpu);
    }
    std::cout << format_topology_tree(topology, gpu, no_gpu) << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
