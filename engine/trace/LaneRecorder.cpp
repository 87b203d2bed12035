// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/trace/LaneRecorder.h"

#include "engine/topology/CurrentCpu.h"

namespace pinscope {

void LaneRecorder::record(Stage stage, std::uint64_t batch, std::uint64_t bytes, TimeNs start, TimeNs end) {
    if (!trace_->all_spans() && stage != Stage::Compute) return;
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
