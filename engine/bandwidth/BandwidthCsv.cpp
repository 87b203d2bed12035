// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bandwidth/BandwidthCsv.h"

#include "engine/export/ExportFormat.h"
#include "engine/files/AtomicFile.h"

namespace pinscope {

void write_bandwidth_csv(std::ostream& out, const BandwidthResult& result) {
    out << kBandwidthCsvHeader << '\n';
    for (const BandwidthPoint& point : result.points) {
        out << to_string(point.direction) << ',' << to_string(point.memory) << ',' << point.bytes << ','
            << format_fixed(point.gb_per_s, 3) << ',' << format_fixed(point.min_gb_per_s, 3) << ','
            << format_fixed(point.max_gb_per_s, 3) << ',' << point.samples << ','
            << (point.plain_loop_gb_per_s > 0 ? format_fixed(point.plain_loop_gb_per_s, 3) : "") << '\n';
    }
}

void export_bandwidth_csv(const std::string& path, const BandwidthResult& result) {
    write_file_atomically(path, [&](std::ostream& out) { write_bandwidth_csv(out, result); });
}

}  // namespace pinscope
