// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/NumaPlan.h"

#include <algorithm>

#include "engine/config/ConfigValidation.h"
#include "engine/device/DeviceName.h"
#include "engine/device/HardwareProfile.h"
#include "engine/topology/CpuList.h"

namespace pinscope {
namespace {

// "node 0, CPUs 0-1": the one node of a single-node topology, for refusals.
std::string only_node_text(const MachineTopology& topology) {
    if (topology.nodes.empty()) return "no node";
    const TopologyNode& node = topology.nodes.front();
    return "node " + std::to_string(node.os_index) + ", CPUs " + cpu_list_to_string(node.cpus);
}

std::string single_node_reason(const std::string& what, const MachineTopology& topology) {
    const std::string place = topology.from_file ? "this topology" : "this machine";
    return what + " needs a second NUMA node; " + place + " has one (" + only_node_text(topology) + ")";
}

int package_of_node(const MachineTopology& topology, int node) {
    for (const TopologyPackage& package : topology.packages)
        if (std::find(package.nodes.begin(), package.nodes.end(), node) != package.nodes.end()) return package.os_index;
    return -1;
}

// Another node than `reference`, on another package when there is one, else the next by number.
int remote_node_of(const MachineTopology& topology, int reference) {
    if (topology.nodes.size() < 2) return -1;
    const int package = package_of_node(topology, reference);
    std::vector<int> candidates;
    for (const TopologyNode& node : topology.nodes)
        if (node.os_index != reference && !node.cpus.empty()) candidates.push_back(node.os_index);
    if (candidates.empty())
        for (const TopologyNode& node : topology.nodes)
            if (node.os_index != reference) candidates.push_back(node.os_index);
    if (candidates.empty()) return -1;  // loaders refuse repeated node numbers; never index an empty list
    const auto after = [&](int node) { return node > reference ? node - reference : node - reference + 65536; };
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
        const bool a_far = package_of_node(topology, a) != package;
        const bool b_far = package_of_node(topology, b) != package;
        return a_far != b_far ? a_far : after(a) < after(b);
    });
    return candidates.front();
}

std::vector<int> node_cpus(const MachineTopology& topology, int node) {
    const TopologyNode* found = topology.find_node(node);
    return found != nullptr ? found->cpus : std::vector<int>{};
}

ThreadCpus resolve(const CpuBinding& binding, const NumaPlan& plan, const TopologyGpu* gpu) {
    const MachineTopology& topology = *plan.topology;
    ThreadCpus out{true, {}};
    switch (binding.policy) {
        case CpuBindPolicy::None:
            out.bound = false;
            out.cpus = topology.all_cpus();
            break;
        case CpuBindPolicy::GpuLocal:
            out.cpus = gpu != nullptr && gpu->node >= 0 && !gpu->local_cpus.empty() ? gpu->local_cpus
                                                                                     : node_cpus(topology, plan.reference_node);
            break;
        case CpuBindPolicy::Remote:
            out.cpus = node_cpus(topology, plan.remote_node);
            break;
        case CpuBindPolicy::CpuList: out.cpus = binding.cpus; break;
    }
    if (out.bound && out.cpus.empty()) {  // a node without CPUs (memory only): local is anywhere, remote elsewhere
        for (const int cpu : topology.all_cpus())
            if (binding.policy != CpuBindPolicy::Remote || topology.node_of_cpu(cpu) != plan.reference_node)
                out.cpus.push_back(cpu);
    }
    return out;
}

}  // namespace

const ThreadCpus& NumaPlan::cpus_for(LaneKind kind) const {
    if (kind == LaneKind::Worker) return workers;
    if (kind == LaneKind::PinThread) return pin_thread;
    return consumer;
}

HostCpu NumaPlan::modelled_cpu(LaneKind kind, std::uint16_t index) const {
    if (!modelled) return {};
    const ThreadCpus& set = cpus_for(kind);
    if (set.cpus.empty()) return {};
    const int cpu = set.cpus[index % set.cpus.size()];
    return {cpu, topology->node_of_cpu(cpu)};
}

PinnedPlacement NumaPlan::device_placement() const {
    if (modelled) return {};
    return PinnedPlacement{membind, membind_nodes};
}

std::vector<std::pair<int, double>> NumaPlan::modelled_shares(int toucher) const {
    if (membind == MemoryPlacement::FirstTouch) return {{toucher, 1.0}};
    std::vector<std::pair<int, double>> shares;
    for (const int node : membind_nodes) shares.emplace_back(node, 1.0 / static_cast<double>(membind_nodes.size()));
    return shares;
}

std::string topology_place(const MachineTopology& topology) {
    return topology.from_file ? "the loaded topology " + topology.source : std::string("this machine");
}

std::vector<ConfigIssue> find_numa_issues(const LoaderConfig& config, const MachineTopology& topology) {
    std::vector<ConfigIssue> issues;
    const std::vector<int> all = topology.all_cpus();
    for (const BindingField& field : kBindingFields) {
        const CpuBinding& binding = config.*field.member;
        if (binding.policy == CpuBindPolicy::Remote && topology.single_node()) {
            issues.push_back({field.name, "remote", "none, local or a CPU list: " + single_node_reason("remote", topology)});
        } else if (binding.policy == CpuBindPolicy::CpuList) {
            for (const int cpu : binding.cpus) {
                if (std::binary_search(all.begin(), all.end(), cpu)) continue;
                const std::string policies = topology.single_node() ? "none, local" : "none, local, remote";
                issues.push_back({field.name, to_string(binding),
                                  policies + " or a CPU list: CPU " + std::to_string(cpu) + " does not exist on " +
                                      topology_place(topology) + " (CPUs " + cpu_list_to_string(all) + ")"});
                break;
            }
        }
    }
    if (topology.single_node() &&
        (config.membind == MemoryPlacement::Remote || config.membind == MemoryPlacement::Interleave)) {
        const std::string what = to_string(config.membind);
        issues.push_back({"membind", what, "none or local: " + single_node_reason(what, topology)});
    }
    if (!config.gpu_pci_bus_id.empty() && topology.find_gpu(config.gpu_pci_bus_id) == nullptr) {
        std::string gpus;
        for (const TopologyGpu& gpu : topology.gpus) gpus += (gpus.empty() ? "" : ", ") + gpu.pci_bus_id;
        issues.push_back({"gpu_pci_bus_id", config.gpu_pci_bus_id,
                          gpus.empty() ? "unset: " + topology_place(topology) + " has no NVIDIA GPU"
                                       : "one of the GPUs of " + topology_place(topology) + ": " + gpus});
    }
    return issues;
}

std::shared_ptr<const MachineTopology> load_run_topology(const LoaderConfig& config) {
    if (config.topology_xml.empty()) return this_machine_topology();
    try {
        return std::make_shared<const MachineTopology>(load_topology(config.topology_xml));
    } catch (const TopologyError& error) {
        throw ConfigError(ConfigIssue{"topology_xml", config.topology_xml,
                                      "an hwloc XML topology file or a shipped one (" + shipped_topology_list() +
                                          "): " + error.what()});
    }
}

std::vector<ConfigIssue> find_run_issues(const LoaderConfig& config) {
    std::vector<ConfigIssue> issues = find_config_issues(config);
    if (!issues.empty()) return issues;
    try {
        // A profile file that cannot be used is bad input, found here rather than once the run starts.
        if (config.device_choice().kind == DeviceKind::Emulated) load_profile(emulated_profile(config.device));
        return find_numa_issues(config, *load_run_topology(config));
    } catch (const ConfigError& error) {
        return {error.issue()};
    }
}

void check_numa(const LoaderConfig& config, const MachineTopology& topology) {
    if (auto issues = find_numa_issues(config, topology); !issues.empty()) throw ConfigError(std::move(issues.front()));
}

const TopologyGpu* run_gpu(const LoaderConfig& config, const MachineTopology& topology, const DeviceInfo& device) {
    if (config.is_cuda() || device.kind == DeviceKind::Cuda) return topology.find_gpu(device.pci_bus_id);
    if (!config.gpu_pci_bus_id.empty()) return topology.find_gpu(config.gpu_pci_bus_id);
    return topology.from_file && !topology.gpus.empty() ? &topology.gpus.front() : nullptr;
}

NumaPlan make_numa_plan(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology,
                        const DeviceInfo& device) {
    check_numa(config, *topology);
    NumaPlan plan;
    plan.topology = std::move(topology);
    const MachineTopology& machine = *plan.topology;
    plan.modelled = machine.from_file;
    const TopologyGpu* gpu = run_gpu(config, machine, device);
    if (gpu != nullptr) {
        plan.gpu_pci_bus_id = gpu->pci_bus_id;
        plan.gpu_node = gpu->node;
    }
    plan.reference_node = plan.gpu_node >= 0 ? plan.gpu_node : machine.nodes.front().os_index;
    plan.remote_node = remote_node_of(machine, plan.reference_node);

    const bool uses_locality = [&] {
        for (const BindingField& field : kBindingFields) {
            const CpuBindPolicy policy = (config.*field.member).policy;
            if (policy == CpuBindPolicy::GpuLocal || policy == CpuBindPolicy::Remote) return true;
        }
        return config.membind == MemoryPlacement::GpuLocal || config.membind == MemoryPlacement::Remote;
    }();
    if (plan.gpu_node < 0 && uses_locality) {
        const std::string why = gpu != nullptr ? "hwloc does not know the NUMA node of GPU " + gpu->pci_bus_id
                                : device.kind == DeviceKind::Cuda ? "hwloc does not list GPU " + device.pci_bus_id + " on " + topology_place(machine)
                                                        : "the emulated device stands for no GPU of " + topology_place(machine);
        plan.notes.push_back("NUMA: " + why + "; local and remote are relative to node " +
                             std::to_string(plan.reference_node));
    }
    plan.workers = resolve(config.bind_workers, plan, gpu);
    plan.pin_thread = resolve(config.bind_pin_thread, plan, gpu);
    plan.consumer = resolve(config.bind_consumer, plan, gpu);
    plan.membind = config.membind;
    switch (config.membind) {
        case MemoryPlacement::FirstTouch: break;
        case MemoryPlacement::GpuLocal: plan.membind_nodes = {plan.reference_node}; break;
        case MemoryPlacement::Remote: plan.membind_nodes = {plan.remote_node}; break;
        case MemoryPlacement::Interleave:
            for (const TopologyNode& node : machine.nodes) plan.membind_nodes.push_back(node.os_index);
            break;
    }
    if (plan.modelled)
        plan.notes.push_back("NUMA: " + machine.source +
                             " is a loaded topology: threads and pages are placed in the model, not on this machine");
    return plan;
}

}  // namespace pinscope
