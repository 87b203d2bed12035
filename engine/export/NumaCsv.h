#pragma once
// numa.csv: the NUMA footprint over time, one row per sample: pinned bytes in use on each node
// and the bytes that crossed nodes so far.
#include <ostream>
#include <vector>

#include "runner/RunRecord.h"

namespace pinscope {

// Columns: time_s, node<N>_pinned_in_use_bytes for every node seen in the samples (ascending),
// cross_node_h2d_bytes, cross_node_host_copy_bytes. A node missing from a sample is left empty.
void write_numa_csv(std::ostream& out, const std::vector<NumaSample>& samples, TimeNs origin);

}  // namespace pinscope
