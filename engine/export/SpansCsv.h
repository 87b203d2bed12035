#pragma once
// spans.csv: one row per span, times in microseconds from the run's start.
#include <ostream>
#include <vector>

#include "trace/Span.h"

namespace pinscope {

// Columns: batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node.
// Rows sorted by start time, then lane. gb_per_s, cpu and numa_node are empty where unknown.
void write_spans_csv(std::ostream& out, const std::vector<Span>& spans, TimeNs origin);

}  // namespace pinscope
