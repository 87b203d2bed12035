#include "export/ChromeTrace.h"

#include <algorithm>
#include <set>
#include <variant>

#include <nlohmann/json.hpp>

#include "export/ExportFormat.h"
#include "export/SummaryJson.h"

namespace pinscope {

namespace {

using nlohmann::json;

// Workers first, then pin thread, consumer, copy stream, compute stream: the enum's order.
int sort_index(Lane lane) { return static_cast<int>(lane.kind) * 65536 + lane.index; }

// Perfetto's JSON reader rejects \u escapes in event names, which is how control characters
// would be written.
std::string printable(std::string text) {
    std::replace_if(text.begin(), text.end(), [](char c) { return (c >= 0 && c < 0x20) || c == 0x7f; }, ' ');
    return text;
}

void write_event(std::ostream& out, const json& event, bool& first) {
    out << (first ? "\n" : ",\n") << json_text(event);
    first = false;
}

json metadata(const char* name, json args) {
    return {{"ph", "M"}, {"pid", kTracePid}, {"name", name}, {"args", std::move(args)}};
}

json thread_metadata(const char* name, Lane lane, json args) {
    json event = metadata(name, std::move(args));
    event["tid"] = trace_tid(lane);
    return event;
}

void write_metadata(std::ostream& out, const RunRecord& record, bool& first) {
    write_event(out, metadata("process_name", {{"name", "pinscope " + record.summary.device.name}}), first);
    std::set<Lane, decltype(&lane_less)> lanes(&lane_less);
    for (const Span& span : record.spans) lanes.insert(span.lane);
    for (Lane lane : lanes) {
        write_event(out, thread_metadata("thread_name", lane, {{"name", lane_name(lane)}}), first);
        write_event(out, thread_metadata("thread_sort_index", lane, {{"sort_index", sort_index(lane)}}), first);
    }
}

json event_for(const Span& span, TimeNs origin) {
    json args = {{"batch", span.batch}, {"bytes", span.bytes}};
    if (span.cpu >= 0) args["cpu"] = span.cpu;
    if (span.numa_node >= 0) args["numa_node"] = span.numa_node;
    if (const auto rate = span_gb_per_s(span)) args["gb_per_s"] = *rate;
    const std::string stage(to_string(span.stage));
    return {{"ph", "X"}, {"pid", kTracePid}, {"tid", trace_tid(span.lane)}, {"name", stage}, {"cat", stage},
            {"ts", relative_us(span.start, origin)}, {"dur", std::max(0.0, relative_us(span.end, span.start))},
            {"args", std::move(args)}};
}

json event_for(const CounterSample& sample, TimeNs origin) {
    return {{"ph", "C"}, {"pid", kTracePid}, {"name", std::string(to_string(sample.counter))},
            {"ts", relative_us(sample.time, origin)}, {"args", {{"value", sample.value}}}};
}

json event_for(const Marker& marker, TimeNs origin) {
    return {{"ph", "i"}, {"s", "g"}, {"pid", kTracePid}, {"name", printable(marker.text)},
            {"ts", relative_us(marker.time, origin)}};
}

struct Timed {
    TimeNs time;
    std::variant<const Span*, const CounterSample*, const Marker*> item;
};

// Spans in export order, then counters, then markers; stable-sorted by time.
std::vector<Timed> timed_in_order(const RunRecord& record) {
    std::vector<Timed> timed;
    timed.reserve(record.spans.size() + record.counters.size() + record.markers.size());
    for (const Span* span : spans_in_export_order(record.spans)) timed.push_back({span->start, span});
    for (const CounterSample& sample : record.counters) timed.push_back({sample.time, &sample});
    for (const Marker& marker : record.markers) timed.push_back({marker.time, &marker});
    std::stable_sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) { return a.time < b.time; });
    return timed;
}

}  // namespace

int trace_tid(Lane lane) {
    switch (lane.kind) {
        case LaneKind::Consumer: return 1;
        case LaneKind::PinThread: return 2;
        case LaneKind::CopyStream: return 3;
        case LaneKind::ComputeStream: return 4;
        case LaneKind::Worker: return 100 + lane.index;
    }
    return 0;
}

// Written event by event rather than as one json value: a long run holds hundreds of thousands of
// spans, and a json tree of them all would cost far more memory than the record itself.
void write_chrome_trace(std::ostream& out, const RunRecord& record) {
    // displayTimeUnit first: Perfetto reads it only from the start of the file.
    out << R"({"displayTimeUnit":"ms","otherData":)"
        << json_text(summary_to_json(record.summary))
        << R"(,"traceEvents":[)";
    bool first = true;
    write_metadata(out, record, first);
    for (const Timed& timed : timed_in_order(record)) {
        std::visit([&](const auto* item) { write_event(out, event_for(*item, record.origin), first); }, timed.item);
    }
    out << "\n]}\n";
}

}  // namespace pinscope
