// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/ThreadPlacement.h"

#include <pthread.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/topology/CpuList.h"

namespace pinscope {
namespace {

const char* field_of(LaneKind kind) {
    if (kind == LaneKind::Worker) return "bind_workers";
    if (kind == LaneKind::PinThread) return "bind_pin_thread";
    return "bind_consumer";
}

}  // namespace

ThreadPlacementScope::ThreadPlacementScope(const NumaPlan* plan, LaneKind kind, std::uint16_t index)
    : previous_modelled_(modelled_host_cpu()) {
    if (plan == nullptr) return;
    if (plan->modelled) {
        set_modelled_host_cpu(plan->modelled_cpu(kind, index));
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
    set_modelled_host_cpu(previous_modelled_);
    if (restore_affinity_) pthread_setaffinity_np(pthread_self(), sizeof previous_affinity_, &previous_affinity_);
}

}  // namespace pinscope
