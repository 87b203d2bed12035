// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// numa.csv: the NUMA footprint over time, one row per sample: pinned bytes in use on each node
// and the bytes that crossed nodes so far.
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "engine/files/AtomicFile.h"
#include "engine/runner/RunRecord.h"

namespace pinscope {

// Columns: time_s, node<N>_pinned_in_use_bytes for every node seen in the samples (ascending),
// cross_node_h2d_bytes, cross_node_host_copy_bytes. A node missing from a sample is left empty.
// The columns are known only at the end, so the samples wait in a scratch file in
// `scratch_directory` (not in memory) until finish() writes the file.
class NumaCsvWriter {
public:
    NumaCsvWriter(std::ostream& out, TimeNs origin, const std::string& scratch_directory);
    void add(const NumaSample& sample);
    void finish();  // throws std::runtime_error when the scratch file fails

private:
    void write_row(const NumaSample& sample);

    std::ostream& out_;
    TimeNs origin_;
    ScratchFile scratch_;
    std::set<int> nodes_;
    bool failed_ = false;
};

void write_numa_csv(std::ostream& out, const std::vector<NumaSample>& samples, TimeNs origin);

}  // namespace pinscope
