#pragma once
// The run as Chrome trace-event JSON, which Perfetto and chrome://tracing open: one process, one
// track per lane, a complete event per span, counter tracks, and the markers as instant events.
#include <ostream>

#include "runner/RunRecord.h"

namespace pinscope {

// Stable track ids: consumer 1, pin thread 2, copy stream 3, compute stream 4, worker k 100 + k.
inline constexpr int kTracePid = 1;
int trace_tid(Lane lane);

// {"displayTimeUnit": "ms", "otherData": summary, "traceEvents": [...]}: metadata events first,
// then every timed event sorted by ts (microseconds from the run's start).
void write_chrome_trace(std::ostream& out, const RunRecord& record);

}  // namespace pinscope
