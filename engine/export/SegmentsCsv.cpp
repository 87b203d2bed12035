// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/SegmentsCsv.h"

#include <nlohmann/json.hpp>

#include "engine/config/ConfigJson.h"
#include "engine/export/ExportFormat.h"
#include "engine/metrics/MetricFields.h"

namespace pinscope {
namespace {

// The metric's column, with its unit where the key does not say it already.
std::string column_of(const MetricField& field) {
    switch (field.kind) {
        case MetricKind::Share: return std::string(field.key) + "_share";
        case MetricKind::Bytes: return std::string(field.key);  // "h2d_bytes"
        default: return field.key;                              // "batches_per_s", "wall_s", "batches"
    }
}

// A CSV field: quoted, its quotes doubled.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + '"';
}

std::string number_of(const MetricField& field, double value) {
    if (field.kind == MetricKind::Count) return std::to_string(static_cast<std::uint64_t>(value));
    if (field.kind == MetricKind::Bytes) return format_fixed(value, 0);
    return format_fixed(value, field.kind == MetricKind::Share ? 6 : 3);
}

}  // namespace

void write_segments_csv(std::ostream& out, const RunSummary& summary) {
    out << "segment,start_s,end_s,change";
    for (const MetricField& field : metric_fields()) out << ',' << column_of(field);
    out << ",pinned_peak_bytes,pinned_in_use_peak_bytes,host_allocations,cache_hits,bottleneck,config_json\n";
    const TimeNs origin = summary.segments.empty() ? 0 : summary.segments.front().begin;
    for (const RunSegment& s : summary.segments) {
        out << std::to_string(s.index) << ',' << format_time_s(s.begin, origin) << ',' << format_time_s(s.end, origin) << ','
            << quoted(s.change);
        for (const MetricField& field : metric_fields()) out << ',' << number_of(field, field.get(s.metrics));
        out << ',' << std::to_string(s.pinned_peak_bytes) << ',' << std::to_string(s.pinned_in_use_peak_bytes) << ','
            << std::to_string(s.host_allocations) << ',' << std::to_string(s.cache_hits) << ','
            << to_string(s.bottleneck.resource) << ',' << quoted(json_text(to_json(s.config))) << '\n';
    }
}

}  // namespace pinscope
