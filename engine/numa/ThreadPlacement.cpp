// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/ThreadPlacement.h"

#include <pthread.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace pinscope {
namespace {

thread_local HostCpu t_modelled_cpu;

const char* field_of(LaneKind kind) {
    if (kind == LaneKind::Worker) return "bind_workers";
    if (kind == LaneKind::PinThread) return "bind_pin_thread";
    return "bind_consumer";
}

}  // namespace

HostCpu current_host_cpu() {
    if (t_modelled_cpu.cpu >= 0) return t_modelled_cpu;
    static const std::shared_ptr<const MachineTopology> machine = this_machine_topology();
    const int cpu = sched_getcpu();
    return {cpu, machine->node_of_cpu(cpu)};
}

ThreadPlacementScope::ThreadPlacementScope(const NumaPlan* plan, LaneKind kind, std::uint16_t index)
    : previous_modelled_(t_modelled_cpu) {
    if (plan == nullptr) return;
    if (plan->modelled) {
        t_modelled_cpu = plan->modelled_cpu(kind, index);
        return;
    }
    const ThreadCpus& set = plan->cpus_for(kind);
    if (!set.bound) return;
    cpu_set_t wanted;
    CPU_ZERO(&wanted);
    for (const int cpu : set.cpus)
        if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &wanted);
    restore_affinity_ = pthread_getaffinity_np(pthread_self(), sizeof previous_affinity_, &previous_affinity_) == 0;
    if (const int error = pthread_setaffinity_np(pthread_self(), sizeof wanted, &wanted); error != 0) {
        restore_affinity_ = false;
        throw std::runtime_error(std::string(field_of(kind)) + ": the OS refused to bind " +
                                 lane_name({kind, index}) + " to CPUs " + cpu_list_to_string(set.cpus) + ": " +
                                 std::strerror(error));
    }
}

ThreadPlacementScope::~ThreadPlacementScope() {
    t_modelled_cpu = previous_modelled_;
    if (restore_affinity_) pthread_setaffinity_np(pthread_self(), sizeof previous_affinity_, &previous_affinity_);
}

}  // namespace pinscope
