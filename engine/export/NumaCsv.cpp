// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/NumaCsv.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "engine/export/ExportFormat.h"

namespace pinscope {

namespace {

// A sample in the scratch file: time, node count, (node, bytes) pairs, the two cross-node totals.
bool read_sample(std::FILE* file, NumaSample& sample) {
    std::uint32_t count = 0;
    if (!scratch_get(file, sample.time) || !scratch_get(file, count)) return false;
    sample.pinned.resize(count);
    for (NodeUsage& node : sample.pinned)
        if (!scratch_get(file, node.node) || !scratch_get(file, node.pinned_bytes)) return false;
    return scratch_get(file, sample.cross_node_h2d_bytes) && scratch_get(file, sample.cross_node_host_copy_bytes);
}

}  // namespace

NumaCsvWriter::NumaCsvWriter(std::ostream& out, TimeNs origin, const std::string& scratch_directory)
    : out_(out), origin_(origin), scratch_(open_scratch_file(scratch_directory)) {}

void NumaCsvWriter::add(const NumaSample& sample) {
    for (const NodeUsage& node : sample.pinned) nodes_.insert(node.node);
    std::FILE* file = scratch_.get();
    bool ok = scratch_put(file, sample.time) && scratch_put(file, static_cast<std::uint32_t>(sample.pinned.size()));
    for (const NodeUsage& node : sample.pinned) ok = ok && scratch_put(file, node.node) && scratch_put(file, node.pinned_bytes);
    ok = ok && scratch_put(file, sample.cross_node_h2d_bytes) && scratch_put(file, sample.cross_node_host_copy_bytes);
    failed_ = failed_ || !ok;
}

void NumaCsvWriter::finish() {
    std::FILE* file = scratch_.get();
    if (failed_ || std::fflush(file) != 0 || std::fseek(file, 0, SEEK_SET) != 0)
        throw std::runtime_error("the NUMA samples could not be kept in a scratch file");
    out_ << "time_s";
    for (const int node : nodes_) out_ << ",node" << node << "_pinned_in_use_bytes";
    out_ << ",cross_node_h2d_bytes,cross_node_host_copy_bytes\n";
    NumaSample sample;
    while (read_sample(file, sample)) write_row(sample);
    if (std::ferror(file) != 0) throw std::runtime_error("the NUMA samples could not be read back");
}

void NumaCsvWriter::write_row(const NumaSample& sample) {
    out_ << format_time_s(sample.time, origin_);
    for (const int node : nodes_) {
        const auto it = std::find_if(sample.pinned.begin(), sample.pinned.end(),
                                     [&](const NodeUsage& n) { return n.node == node; });
        out_ << ',';
        if (it != sample.pinned.end()) out_ << it->pinned_bytes;
    }
    out_ << ',' << sample.cross_node_h2d_bytes << ',' << sample.cross_node_host_copy_bytes << '\n';
}

void write_numa_csv(std::ostream& out, const std::vector<NumaSample>& samples, TimeNs origin) {
    NumaCsvWriter writer(out, origin, scratch_directory_for("-"));
    for (const NumaSample& sample : samples) writer.add(sample);
    writer.finish();
}

}  // namespace pinscope
