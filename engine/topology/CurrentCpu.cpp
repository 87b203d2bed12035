// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/CurrentCpu.h"

#include <sched.h>

#include <memory>

#include "engine/topology/MachineTopology.h"

namespace pinscope {
namespace {

thread_local HostCpu t_modelled_cpu;

}  // namespace

HostCpu current_host_cpu() {
    if (t_modelled_cpu.cpu >= 0) return t_modelled_cpu;
    static const std::shared_ptr<const MachineTopology> machine = this_machine_topology();
    const int cpu = sched_getcpu();
    return {cpu, machine->node_of_cpu(cpu)};
}

HostCpu modelled_host_cpu() { return t_modelled_cpu; }

void set_modelled_host_cpu(HostCpu where) { t_modelled_cpu = where; }

}  // namespace pinscope
