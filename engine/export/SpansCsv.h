// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// spans.csv: one row per span, times in microseconds from the run's start.
#include <ostream>
#include <vector>

#include "engine/export/TimeOrderBuffer.h"
#include "engine/trace/Span.h"

namespace pinscope {

// Columns: batch,stage,lane,lane_index,start_us,end_us,duration_us,bytes,gb_per_s,cpu,numa_node.
// Rows sorted by start time, then lane. gb_per_s, cpu and numa_node are empty where unknown.
// Written as the spans come (in the order they ended), holding only the recent ones back
// (TimeOrderBuffer); the file is the same whether the spans come at once or bit by bit.
class SpansCsvWriter {
public:
    SpansCsvWriter(std::ostream& out, TimeNs origin);  // writes the header
    void add(const std::vector<Span>& spans);
    void finish();  // the rest

private:
    struct StartOf {
        TimeNs operator()(const Span& span) const { return span.start; }
    };
    struct Less {
        bool operator()(const Span& a, const Span& b) const;
    };
    void write_row(const Span& span);

    std::ostream& out_;
    TimeNs origin_;
    TimeOrderBuffer<Span, Less, StartOf> buffer_;
};

void write_spans_csv(std::ostream& out, const std::vector<Span>& spans, TimeNs origin);

}  // namespace pinscope
