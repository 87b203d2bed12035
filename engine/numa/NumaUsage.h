// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a run's memory and traffic are, by NUMA node: what the NUMA view and the exports show.
// Which CPU each stage ran on is in every span (Span::cpu, Span::numa_node).
#include <cstdint>
#include <string>
#include <vector>

namespace pinscope {

struct NodeUsage {
    int node = -1;                   // os_index
    std::uint64_t pinned_bytes = 0;  // page-locked bytes in use whose pages are on this node (sampled)
};

struct NumaUsage {
    std::string gpu_pci_bus_id;  // the run's GPU, normalised; empty when unknown
    int gpu_node = -1;           // its local node, -1 when unknown
    // On a loaded topology nothing runs there: CPUs and pages are where the policies put them,
    // and the emulated device charges the profile's cross-node cost. Otherwise they are read back.
    bool modelled = false;
    std::vector<NodeUsage> nodes;  // one per node of the run's topology, ascending
    // Whole run so far.
    std::uint64_t h2d_bytes = 0;                   // every byte copied to the GPU
    std::uint64_t cross_node_h2d_bytes = 0;        // of which from pages on another node than the GPU's
    std::uint64_t host_copy_bytes = 0;             // collate and pin copies
    std::uint64_t cross_node_host_copy_bytes = 0;  // of which by a thread on another node than the destination pages
};

}  // namespace pinscope
