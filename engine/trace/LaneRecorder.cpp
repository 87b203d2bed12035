// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/trace/LaneRecorder.h"

#include "engine/clock/RunClock.h"
#include "engine/topology/CurrentCpu.h"

namespace pinscope {

void LaneRecorder::record(Stage stage, std::uint64_t batch, std::uint64_t bytes, TimeNs start, TimeNs end) {
    if (!trace_->all_spans() && stage != Stage::Compute) return;
    // After a stop in modelled time, time stands still while the threads run to their end: what
    // they begin then never ran in the model (and whether they get to it depends on this machine).
    if (const RunClock* clock = RunClock::of_this_thread(); clock != nullptr && clock->stopped_by(start)) return;
    Span span{start, end, batch, bytes, stage, lane_};
    if (!is_device_lane(lane_.kind)) {
        // Where it really ran (sched_getcpu), or on a loaded topology the CPU it stands on there.
        const HostCpu where = current_host_cpu();
        span.cpu = static_cast<std::int16_t>(where.cpu);
        span.numa_node = static_cast<std::int16_t>(where.node);
    }
    trace_->add(span);
}

}  // namespace pinscope
