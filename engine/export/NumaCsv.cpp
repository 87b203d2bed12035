#include "export/NumaCsv.h"

#include <algorithm>
#include <set>

#include "export/ExportFormat.h"

namespace pinscope {

void write_numa_csv(std::ostream& out, const std::vector<NumaSample>& samples, TimeNs origin) {
    std::set<int> nodes;
    for (const NumaSample& sample : samples)
        for (const NodeUsage& node : sample.pinned) nodes.insert(node.node);
    out << "time_s";
    for (const int node : nodes) out << ",node" << node << "_pinned_in_use_bytes";
    out << ",cross_node_h2d_bytes,cross_node_host_copy_bytes\n";
    for (const NumaSample& sample : samples) {
        out << format_time_s(sample.time, origin);
        for (const int node : nodes) {
            const auto it = std::find_if(sample.pinned.begin(), sample.pinned.end(),
                                         [&](const NodeUsage& n) { return n.node == node; });
            out << ',';
            if (it != sample.pinned.end()) out << it->pinned_bytes;
        }
        out << ',' << sample.cross_node_h2d_bytes << ',' << sample.cross_node_host_copy_bytes << '\n';
    }
}

}  // namespace pinscope
