// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run as Chrome trace-event JSON, which Perfetto and chrome://tracing open: one process, one
// track per lane, a complete event per span, counter tracks, and the markers as instant events.
#include <ostream>
#include <set>
#include <string>
#include <variant>

#include "engine/export/ExportFormat.h"
#include "engine/export/TimeOrderBuffer.h"
#include "engine/files/AtomicFile.h"
#include "engine/runner/RunRecord.h"

namespace pinscope {

// Stable track ids: consumer 1, pin thread 2, copy stream 3, compute stream 4, worker k 100 + k.
inline constexpr int kTracePid = 1;
int trace_tid(Lane lane);

// {"displayTimeUnit": "ms", "otherData": summary, "traceEvents": [...]}: metadata events first,
// then every timed event sorted by ts (microseconds from the run's start). The summary and the
// lanes that go first are known only at the end, so the timed events wait in a scratch file in
// `scratch_directory` (not in memory), in order (TimeOrderBuffer), until finish() writes the file;
// the JSON is made there, off the run's observer thread.
class ChromeTraceWriter {
public:
    ChromeTraceWriter(std::ostream& out, TimeNs origin, const std::string& scratch_directory);
    void add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters,
             const std::vector<Marker>& markers);
    void finish(const RunSummary& summary);  // throws std::runtime_error when the scratch file fails

    using Item = std::variant<Span, CounterSample, Marker>;
    struct TimeOf {
        TimeNs operator()(const Item& item) const;
    };
    // By time; at one time spans (in export order) before counters before markers.
    struct Less {
        bool operator()(const Item& a, const Item& b) const;
    };

private:
    void write_timed(const Item& item);

    std::ostream& out_;
    TimeNs origin_;
    ScratchFile scratch_;
    bool failed_ = false;
    std::set<Lane, decltype(&lane_less)> lanes_{&lane_less};
    TimeOrderBuffer<Item, Less, TimeOf> buffer_;
};

void write_chrome_trace(std::ostream& out, const RunRecord& record);

}  // namespace pinscope
