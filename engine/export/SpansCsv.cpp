#include "export/SpansCsv.h"

#include "export/ExportFormat.h"

namespace pinscope {

namespace {

std::string known_or_empty(std::int16_t value) {
    return value < 0 ? std::string() : std::to_string(value);
}

// Numbers go through to_string and format_fixed, not the stream, so a locale that groups digits
// cannot break the columns.
void write_row(std::ostream& out, const Span& span, TimeNs origin) {
    const auto gb_per_s = span_gb_per_s(span);
    out << std::to_string(span.batch) << ',' << to_string(span.stage) << ',' << lane_kind_token(span.lane.kind)
        << ',' << std::to_string(span.lane.index) << ',' << format_time_us(span.start, origin) << ','
        << format_time_us(span.end, origin) << ',' << format_time_us(span.end, span.start) << ','
        << std::to_string(span.bytes) << ',' << (gb_per_s ? format_fixed(*gb_per_s, 3) : std::string()) << ','
        << known_or_empty(span.cpu) << ',' << known_or_empty(span.numa_node) << '\n';
}

}  // namespace

void write_spans_csv(std::ostream& out, const std::vector<Span>& spans, TimeNs origin) {
    out << "batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node\n";
    for (const Span* span : spans_in_export_order(spans)) write_row(out, *span, origin);
}

}  // namespace pinscope
