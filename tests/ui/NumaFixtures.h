// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Hand-built machines for the NUMA view's tests (the engine's hwloc loader is not needed): a laptop
// with one node, a 2-socket server with a GPU on each socket, a 4-GPU server with two per socket;
// CPUs numbered as Linux numbers them (the second hardware threads after all first ones).
#include <memory>

#include "engine/numa/NumaUsage.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/Span.h"

namespace pinscope::test {

inline constexpr const char* kGpuOnSocket0 = "0000:17:00.0";
inline constexpr const char* kGpuOnSocket1 = "0000:c1:00.0";

// `packages` sockets of `cores` cores with `threads` hardware threads each, one NUMA node per socket
// with `node_gib` GiB.
MachineTopology sockets_topology(int packages, int cores, int threads, int node_gib);

std::shared_ptr<const MachineTopology> laptop_topology();      // this machine, 1 node, 4 cores x 2, no GPU
std::shared_ptr<const MachineTopology> two_socket_topology();  // loaded, 2 x 32 cores x 2, GPUs on both sockets
std::shared_ptr<const MachineTopology> four_gpu_topology();    // loaded, 2 x 24 cores x 2, 2 GPUs per socket
// Loaded, 2 sockets split in two nodes each (sub-NUMA clustering), 2 x 2 x 16 cores x 2, 8 GPUs.
std::shared_ptr<const MachineTopology> snc_topology();

// A span of a host lane on `cpu`, from `start_ms` to `end_ms` milliseconds.
Span host_span(LaneKind kind, int cpu, double start_ms, double end_ms, Stage stage, std::uint16_t index = 0);

// Usage on a 2-node machine: the GPU on node `gpu_node`, pinned bytes per node, and H2D bytes of
// which `cross` crossed nodes.
NumaUsage two_node_usage(int gpu_node, std::uint64_t pinned0, std::uint64_t pinned1, std::uint64_t h2d, std::uint64_t cross);

}  // namespace pinscope::test
