// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/SpansCsv.h"

#include "engine/export/ExportFormat.h"

namespace pinscope {

namespace {

std::string known_or_empty(std::int16_t value) {
    return value < 0 ? std::string() : std::to_string(value);
}

}  // namespace

bool SpansCsvWriter::Less::operator()(const Span& a, const Span& b) const { return span_export_less(a, b); }

SpansCsvWriter::SpansCsvWriter(std::ostream& out, TimeNs origin) : out_(out), origin_(origin) {
    out_ << "batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node\n";
}

void SpansCsvWriter::add(const std::vector<Span>& spans) {
    for (const Span& span : spans) buffer_.widen_hold(span.duration());
    buffer_.add(spans);
    buffer_.release_ready([&](const Span& span) { write_row(span); });
}

void SpansCsvWriter::finish() {
    buffer_.release_all([&](const Span& span) { write_row(span); });
}

// Numbers go through to_string and format_fixed, not the stream, so a locale that groups digits
// cannot break the columns.
void SpansCsvWriter::write_row(const Span& span) {
    const auto gb_per_s = span_gb_per_s(span);
    out_ << std::to_string(span.batch) << ',' << to_string(span.stage) << ',' << lane_kind_token(span.lane.kind)
         << ',' << std::to_string(span.lane.index) << ',' << format_time_us(span.start, origin_) << ','
         << format_time_us(span.end, origin_) << ',' << format_time_us(span.end, span.start) << ','
         << std::to_string(span.bytes) << ',' << (gb_per_s ? format_fixed(*gb_per_s, 3) : std::string()) << ','
         << known_or_empty(span.cpu) << ',' << known_or_empty(span.numa_node) << '\n';
}

void write_spans_csv(std::ostream& out, const std::vector<Span>& spans, TimeNs origin) {
    SpansCsvWriter writer(out, origin);
    writer.add(spans);
    writer.finish();
}

}  // namespace pinscope
