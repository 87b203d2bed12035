// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/ChromeTrace.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/export/SummaryJson.h"

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
            {"ts", relative_us(marker.time, origin)}, {"args", {{"kind", to_string(marker.kind)}}}};
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

TimeNs ChromeTraceWriter::TimeOf::operator()(const Item& item) const {
    struct Visit {
        TimeNs operator()(const Span& span) const { return span.start; }
        TimeNs operator()(const CounterSample& sample) const { return sample.time; }
        TimeNs operator()(const Marker& marker) const { return marker.time; }
    };
    return std::visit(Visit{}, item);
}

bool ChromeTraceWriter::Less::operator()(const Item& a, const Item& b) const {
    const TimeNs ta = TimeOf{}(a);
    const TimeNs tb = TimeOf{}(b);
    if (ta != tb) return ta < tb;
    if (a.index() != b.index()) return a.index() < b.index();
    const Span* sa = std::get_if<Span>(&a);
    return sa != nullptr && span_export_less(*sa, std::get<Span>(b));
}

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, TimeNs origin, const std::string& scratch_directory)
    : out_(out), origin_(origin), scratch_(open_scratch_file(scratch_directory)) {}

void ChromeTraceWriter::add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters,
                            const std::vector<Marker>& markers) {
    for (const Span& span : spans) {
        lanes_.insert(span.lane);
        buffer_.widen_hold(span.duration());
    }
    // One kind after the other: at one time, spans then counters then markers, as arrived.
    buffer_.add(spans);
    buffer_.add(counters);
    buffer_.add(markers);
    buffer_.release_ready([&](const Item& item) { write_timed(item); });
}

// The scratch file holds the events in order as records (a tag, then the item's bytes; a marker's
// text after its length), so that the observer only copies them; JSON is made once, at the end.
enum class Tag : std::uint8_t { Span, Counter, Marker };

void ChromeTraceWriter::write_timed(const Item& item) {
    std::FILE* file = scratch_.get();
    bool ok = true;
    if (const Span* span = std::get_if<Span>(&item)) {
        ok = scratch_put(file, Tag::Span) && scratch_put(file, *span);
    } else if (const CounterSample* sample = std::get_if<CounterSample>(&item)) {
        ok = scratch_put(file, Tag::Counter) && scratch_put(file, *sample);
    } else {
        const Marker& marker = std::get<Marker>(item);
        const auto length = static_cast<std::uint32_t>(marker.text.size());
        ok = scratch_put(file, Tag::Marker) && scratch_put(file, marker.time) && scratch_put(file, marker.kind) &&
             scratch_put(file, length) &&
             std::fwrite(marker.text.data(), 1, length, file) == length;
    }
    failed_ = failed_ || !ok;
}

namespace {

// The next record of the scratch file; false at its end.
bool read_timed(std::FILE* file, ChromeTraceWriter::Item& item) {
    Tag tag{};
    if (!scratch_get(file, tag)) return false;
    switch (tag) {
        case Tag::Span: {
            Span span;
            if (!scratch_get(file, span)) return false;
            item = span;
            return true;
        }
        case Tag::Counter: {
            CounterSample sample;
            if (!scratch_get(file, sample)) return false;
            item = sample;
            return true;
        }
        case Tag::Marker: {
            Marker marker;
            std::uint32_t length = 0;
            if (!scratch_get(file, marker.time) || !scratch_get(file, marker.kind) || !scratch_get(file, length))
                return false;
            marker.text.resize(length);
            if (std::fread(marker.text.data(), 1, length, file) != length) return false;
            item = std::move(marker);
            return true;
        }
    }
    return false;
}

}  // namespace

// Written event by event rather than as one json value: a long run holds hundreds of thousands of
// spans, and a json tree of them all would cost far more memory than the record itself.
void ChromeTraceWriter::finish(const RunSummary& summary) {
    buffer_.release_all([&](const Item& item) { write_timed(item); });
    std::FILE* file = scratch_.get();
    if (failed_ || std::fflush(file) != 0 || std::fseek(file, 0, SEEK_SET) != 0)
        throw std::runtime_error("the trace events could not be kept in a scratch file");
    // displayTimeUnit first: Perfetto reads it only from the start of the file.
    out_ << R"({"displayTimeUnit":"ms","otherData":)" << json_text(summary_to_json(summary)) << R"(,"traceEvents":[)";
    bool first = true;
    write_event(out_, metadata("process_name", {{"name", "pinscope " + summary.device.name}}), first);
    for (Lane lane : lanes_) {
        write_event(out_, thread_metadata("thread_name", lane, {{"name", lane_name(lane)}}), first);
        write_event(out_, thread_metadata("thread_sort_index", lane, {{"sort_index", sort_index(lane)}}), first);
    }
    Item item;
    while (read_timed(file, item))
        write_event(out_, std::visit([&](const auto& x) { return event_for(x, origin_); }, item), first);
    if (std::ferror(file) != 0) throw std::runtime_error("the trace events could not be read back");
    out_ << "\n]}\n";
}

void write_chrome_trace(std::ostream& out, const RunRecord& record) {
    ChromeTraceWriter writer(out, record.origin, scratch_directory_for("-"));
    writer.add(record.spans, record.counters, record.markers);
    writer.finish(record.summary);
}

}  // namespace pinscope
