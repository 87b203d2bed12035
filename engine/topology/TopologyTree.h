// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A topology as text, for `pinscope-cli topology`: packages, their NUMA nodes
// with memory, cores and CPUs, each NVIDIA GPU under its node, and where the run's GPU is local.
#include <string>

#include "engine/topology/MachineTopology.h"

namespace pinscope {

// "this machine (vm)" or "2-socket-2-gpu (shipped sample): a loaded topology, not this machine".
std::string topology_title(const MachineTopology& topology);

// The tree, then the locality line of `gpu` (one of topology.gpus, or null: `no_gpu` says why
// there is none), then the single-node note where it applies. Lines end in '\n'.
std::string format_topology_tree(const MachineTopology& topology, const TopologyGpu* gpu, const std::string& no_gpu);

// "GPU 0000:c1:00.0 (NVIDIA H200) is local to NUMA node 1, CPUs 16-31,48-63", or why its node is unknown.
std::string gpu_locality_line(const TopologyGpu& gpu);

inline constexpr const char* kSingleNodeNote = "one NUMA node: remote binding and placement do not apply here";

}  // namespace pinscope
