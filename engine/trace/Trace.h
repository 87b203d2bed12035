// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run's record: spans and counter samples in bounded rings, and the rare markers (reconfigure,
// warnings) in a small log. Writers (the pipeline's threads) never wait on readers; each reader
// (UI, exporter, metrics) owns a TraceReader and takes what is new on its own schedule.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "engine/trace/Counter.h"
#include "engine/trace/Span.h"
#include "engine/trace/TraceRing.h"

namespace pinscope {

// What a marker marks; views colour it and tell reconfigurations apart by this, not by its text.
enum class MarkerKind : std::uint8_t { Reconfigured, Warning, Error };
inline constexpr int kMarkerKindCount = 3;
const char* to_string(MarkerKind kind);  // "reconfigured", "warning", "error"

struct Marker {
    TimeNs time = 0;
    MarkerKind kind = MarkerKind::Warning;
    std::string text;  // "reconfigured: pin_memory off -> on"
};

class Trace {
public:
    static constexpr std::size_t kDefaultSpanCapacity = 1u << 18;
    static constexpr std::size_t kDefaultCounterCapacity = 1u << 16;

    explicit Trace(std::size_t span_capacity = kDefaultSpanCapacity,
                   std::size_t counter_capacity = kDefaultCounterCapacity);

    // Off: only compute spans (what throughput is counted from) are recorded, so that a run can be
    // measured against itself to find what tracing costs. LaneRecorder, which records every span,
    // skips the others before it does any work for them.
    void set_all_spans(bool on) { all_spans_ = on; }
    bool all_spans() const { return all_spans_; }
    void add(const Span& span) { spans_.push(span); }
    void add(Counter counter, TimeNs time, double value) { counters_.push({time, value, counter}); }
    void add_marker(TimeNs time, MarkerKind kind, std::string text);

    const TraceRing<Span>& spans() const { return spans_; }
    const TraceRing<CounterSample>& counters() const { return counters_; }
    // Markers from index `from` on (markers are never dropped; there are few).
    std::vector<Marker> markers_since(std::size_t from) const;

private:
    bool all_spans_ = true;
    TraceRing<Span> spans_;
    TraceRing<CounterSample> counters_;
    mutable std::mutex marker_mutex_;
    std::vector<Marker> markers_;
};

struct TraceDelta {
    std::vector<Span> spans;
    std::vector<CounterSample> counters;
    std::vector<Marker> markers;
    void clear() { spans.clear(); counters.clear(); markers.clear(); }
};

class TraceReader {
public:
    explicit TraceReader(const Trace& trace) : trace_(&trace) {}
    // Appends what is new since the last call. Never blocks a writer.
    void poll(TraceDelta& delta);
    std::uint64_t dropped_spans() const { return span_cursor_.dropped; }
    std::uint64_t dropped_counters() const { return counter_cursor_.dropped; }

private:
    const Trace* trace_;
    RingCursor span_cursor_;
    RingCursor counter_cursor_;
    std::size_t next_marker_ = 0;
};

}  // namespace pinscope
