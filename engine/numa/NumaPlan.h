// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's NUMA decisions, resolved once per configuration against its topology and GPU: which
// CPUs each kind of thread may run on, where pinned pages go, and, on a loaded topology (nothing
// runs there), which modelled CPU each thread stands on.
//
// GpuLocal is the GPU's node (its CPUs: those local to the GPU); Remote is another node than the
// GPU's, on another package when there is one, else the next node by number. With no GPU locality
// known (the emulated device on this machine, or a GPU whose bus hwloc cannot place) both are
// relative to the first node, and a note says so.
//
// Modelled CPUs on a loaded topology: thread k of a kind (worker k; the pin thread and the
// consumer are thread 0) stands on CPU k modulo the size of its resolved set, in ascending order;
// an unbound thread's set is every CPU of the topology, so unbound workers spread from CPU 0 up.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/config/ConfigError.h"
#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/topology/CurrentCpu.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/Span.h"

namespace pinscope {

struct ThreadCpus {
    bool bound = false;     // false: the OS places the thread (cpus is then every CPU)
    std::vector<int> cpus;  // ascending
};

struct NumaPlan {
    std::shared_ptr<const MachineTopology> topology;
    bool modelled = false;       // a loaded topology: CPUs and pages are placed in the model only
    std::string gpu_pci_bus_id;  // normalised; empty when the run's GPU is not on the topology
    int gpu_node = -1;           // -1: unknown
    int reference_node = 0;      // gpu_node, or the first node when unknown: what local and remote mean
    int remote_node = -1;        // -1 on a single-node topology
    ThreadCpus workers;
    ThreadCpus pin_thread;
    ThreadCpus consumer;
    MemoryPlacement membind = MemoryPlacement::FirstTouch;
    std::vector<int> membind_nodes;  // the nodes membind puts pages on (empty for first touch)
    std::vector<std::string> notes;  // said once when the configuration starts (Info)

    const ThreadCpus& cpus_for(LaneKind kind) const;
    // The CPU a thread stands on in the model (see above); {-1, -1} when not modelled.
    HostCpu modelled_cpu(LaneKind kind, std::uint16_t index) const;
    // What the device does with pinned pages: nothing on a loaded topology (placed in the model).
    PinnedPlacement device_placement() const;
    // The nodes' shares of a pinned block placed by membind in the model; first touch: `toucher`.
    std::vector<std::pair<int, double>> modelled_shares(int toucher) const;
};

// "this machine" or "the loaded topology 2-socket-2-gpu (shipped sample)", for messages.
std::string topology_place(const MachineTopology& topology);

// Issues of the NUMA fields that only the run's topology can tell: CPUs that do not exist,
// remote policies on a single node, a GPU the topology does not have. Empty when fine.
std::vector<ConfigIssue> find_numa_issues(const LoaderConfig& config, const MachineTopology& topology);

// The run's GPU on `topology`: the CUDA device's own (by its bus id in `device`), or for the
// emulated device the one config.gpu_pci_bus_id names, else on a loaded topology its first GPU.
const TopologyGpu* run_gpu(const LoaderConfig& config, const MachineTopology& topology, const DeviceInfo& device);

// The run's topology: this machine (shared, loaded once) when config.topology_xml is empty, else the
// loaded XML file or shipped sample. Throws ConfigError (field topology_xml) saying what is wrong.
std::shared_ptr<const MachineTopology> load_run_topology(const LoaderConfig& config);

// Everything a run would refuse before it starts: find_config_issues(), then, when those pass,
// the emulated device's profile and find_numa_issues() on the run's topology (a topology that cannot be loaded is an issue of
// topology_xml). What the CLI and the window check before they start a run.
std::vector<ConfigIssue> find_run_issues(const LoaderConfig& config);

// Throws ConfigError with the first of find_numa_issues().
void check_numa(const LoaderConfig& config, const MachineTopology& topology);

// Resolves the configuration; throws ConfigError with the first of find_numa_issues().
NumaPlan make_numa_plan(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology,
                        const DeviceInfo& device);

}  // namespace pinscope
