// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/trace/Trace.h"

namespace pinscope {

Trace::Trace(std::size_t span_capacity, std::size_t counter_capacity)
    : spans_(span_capacity), counters_(counter_capacity) {}

const char* to_string(MarkerKind kind) {
    switch (kind) {
        case MarkerKind::Reconfigured: return "reconfigured";
        case MarkerKind::Warning: return "warning";
        case MarkerKind::Error: return "error";
    }
    return "warning";
}

void Trace::add_marker(TimeNs time, MarkerKind kind, std::string text) {
    std::lock_guard lock(marker_mutex_);
    markers_.push_back({time, kind, std::move(text)});
}

std::vector<Marker> Trace::markers_since(std::size_t from) const {
    std::lock_guard lock(marker_mutex_);
    if (from >= markers_.size()) return {};
    return {markers_.begin() + static_cast<std::ptrdiff_t>(from), markers_.end()};
}

void TraceReader::poll(TraceDelta& delta) {
    trace_->spans().read(span_cursor_, delta.spans);
    trace_->counters().read(counter_cursor_, delta.counters);
    auto markers = trace_->markers_since(next_marker_);
    next_marker_ += markers.size();
    for (auto& m : markers) delta.markers.push_back(std::move(m));
}

}  // namespace pinscope
