// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the calling thread runs: bound to its plan's CPUs on this machine (the OS keeps it there),
// or, on a loaded topology, standing on a modelled CPU that its spans and first touches report.
#include <sched.h>

#include <cstdint>

#include "engine/numa/NumaPlan.h"
#include "engine/topology/CurrentCpu.h"  // current_host_cpu(), the modelled CPU this sets
#include "engine/trace/Span.h"

namespace pinscope {

// For the thread's lifetime in a pipeline: applies the plan's binding for (kind, index) and
// restores what the thread had (affinity, modelled CPU) when it ends. A null plan does nothing.
class ThreadPlacementScope {
public:
    // Throws std::runtime_error naming the binding field when the OS refuses the CPUs.
    ThreadPlacementScope(const NumaPlan* plan, LaneKind kind, std::uint16_t index);
    ~ThreadPlacementScope();
    ThreadPlacementScope(const ThreadPlacementScope&) = delete;
    ThreadPlacementScope& operator=(const ThreadPlacementScope&) = delete;

private:
    bool restore_affinity_ = false;
    cpu_set_t previous_affinity_{};
    HostCpu previous_modelled_{};
};

}  // namespace pinscope
