// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/TopologyTree.h"

#include <algorithm>
#include <cstdio>

#include "engine/text/Units.h"
#include "engine/topology/CpuList.h"

namespace pinscope {
namespace {

std::string gib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(kGiB));
    return text;
}

std::string count(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::size_t core_count(const MachineTopology& topology) {
    std::size_t cores = 0;
    for (const TopologyPackage& package : topology.packages) cores += package.cores.size();
    return cores;
}

// The cores of `package` whose CPUs belong to `node`, by their logical index.
std::vector<int> cores_of_node(const TopologyPackage& package, const TopologyNode& node) {
    std::vector<int> cores;
    for (const TopologyCore& core : package.cores)
        if (!core.cpus.empty() && std::binary_search(node.cpus.begin(), node.cpus.end(), core.cpus.front()))
            cores.push_back(core.index);
    std::sort(cores.begin(), cores.end());
    return cores;
}

std::string gpu_label(const TopologyGpu& gpu) {
    return "GPU " + gpu.pci_bus_id + (gpu.name.empty() ? std::string() : " (" + gpu.name + ")");
}

void node_lines(std::string& out, const MachineTopology& topology, const TopologyNode& node,
                const TopologyPackage* package, const TopologyGpu* run_gpu) {
    out += "  NUMA node " + std::to_string(node.os_index);
    if (node.memory_bytes > 0) out += "  " + gib(node.memory_bytes);
    if (node.cpus.empty()) {
        out += "  no CPUs (memory only)\n";
    } else {
        const std::vector<int> cores = package != nullptr ? cores_of_node(*package, node) : std::vector<int>{};
        out += "  ";
        if (!cores.empty()) out += "cores " + cpu_list_to_string(cores) + ", ";
        out += "cpus " + cpu_list_to_string(node.cpus) + "\n";
    }
    for (const TopologyGpu& gpu : topology.gpus) {
        if (gpu.node != node.os_index) continue;
        out += "    GPU " + gpu.pci_bus_id + (gpu.name.empty() ? "" : "  " + gpu.name);
        out += &gpu == run_gpu ? "  <- selected\n" : "\n";
    }
}

}  // namespace

std::string topology_title(const MachineTopology& topology) {
    if (topology.from_file) return topology.source + ": a loaded topology, not this machine";
    return topology.source + (topology.machine_name.empty() ? "" : " (" + topology.machine_name + ")");
}

std::string gpu_locality_line(const TopologyGpu& gpu) {
    if (gpu.node < 0) return gpu_label(gpu) + ": its NUMA node is unknown (the topology does not say where its PCI bus attaches)";
    return gpu_label(gpu) + " is local to NUMA node " + std::to_string(gpu.node) +
           (gpu.local_cpus.empty() ? std::string() : ", CPUs " + cpu_list_to_string(gpu.local_cpus));
}

std::string format_topology_tree(const MachineTopology& topology, const TopologyGpu* gpu, const std::string& no_gpu) {
    std::string out = topology_title(topology) + "\n";
    if (topology.from_file && !topology.machine_name.empty()) out += topology.machine_name + "\n";
    out += count(topology.packages.size(), "package", "packages") + ", " +
           count(topology.nodes.size(), "NUMA node", "NUMA nodes") + ", " +
           count(core_count(topology), "core", "cores") + ", " + count(topology.all_cpus().size(), "CPU", "CPUs") +
           ", " + (topology.gpus.empty() ? std::string("no NVIDIA GPU") : count(topology.gpus.size(), "NVIDIA GPU", "NVIDIA GPUs")) +
           "\n";
    std::vector<int> shown;
    for (const TopologyPackage& package : topology.packages) {
        out += "package " + std::to_string(package.os_index) + "\n";
        for (const int os_index : package.nodes) {
            const TopologyNode* node = topology.find_node(os_index);
            if (node == nullptr || std::find(shown.begin(), shown.end(), os_index) != shown.end()) continue;
            node_lines(out, topology, *node, &package, gpu);
            shown.push_back(os_index);
        }
    }
    for (const TopologyNode& node : topology.nodes) {  // nodes outside every package (memory-only ones, say)
        if (std::find(shown.begin(), shown.end(), node.os_index) != shown.end()) continue;
        out += "outside the packages\n";
        node_lines(out, topology, node, nullptr, gpu);
    }
    for (const TopologyGpu& other : topology.gpus)
        if (other.node < 0) out += "GPU " + other.pci_bus_id + (other.name.empty() ? "" : "  " + other.name) + "  (NUMA node unknown)\n";
    out += (gpu != nullptr ? gpu_locality_line(*gpu) : no_gpu) + "\n";
    if (topology.single_node()) out += std::string(kSingleNodeNote) + "\n";
    return out;
}

}  // namespace pinscope
