#include "trace/LaneRecorder.h"

#include <sched.h>

#include "topology/MachineTopology.h"

namespace pinscope {

void LaneRecorder::record(Stage stage, std::uint64_t batch, std::uint64_t bytes, TimeNs start, TimeNs end) {
    if (!trace_->all_spans() && stage != Stage::Compute) return;
    Span span{start, end, batch, bytes, stage, lane_};
    if (!is_device_lane(lane_.kind)) {
        const int cpu = sched_getcpu();
        span.cpu = static_cast<std::int16_t>(cpu);
        static const std::shared_ptr<const MachineTopology> machine = this_machine_topology();
        span.numa_node = static_cast<std::int16_t>(machine->node_of_cpu(cpu));
    }
    trace_->add(span);
}

}  // namespace pinscope
