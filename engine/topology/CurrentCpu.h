// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the calling thread runs: on this machine's CPUs, or, on a loaded topology, standing on a
// modelled CPU that its spans and first touches report.

namespace pinscope {

struct HostCpu {
    int cpu = -1;
    int node = -1;
};

// The CPU and node of the calling thread: its modelled CPU when it has one, else sched_getcpu()
// and this machine's node of that CPU (-1 where unknown).
HostCpu current_host_cpu();

// The calling thread's modelled CPU (cpu -1 when it has none); numa/ThreadPlacement.h sets it
// for the lifetime of a pipeline thread on a loaded topology.
HostCpu modelled_host_cpu();
void set_modelled_host_cpu(HostCpu where);

}  // namespace pinscope
