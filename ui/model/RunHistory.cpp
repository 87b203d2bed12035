// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/RunHistory.h"

#include <algorithm>

namespace pinscope::ui {
namespace {

template <typename T>
void append_bounded(std::deque<T>& to, const std::vector<T>& from, std::size_t capacity) {
    to.insert(to.end(), from.begin(), from.end());
    if (to.size() > capacity) to.erase(to.begin(), to.begin() + static_cast<std::ptrdiff_t>(to.size() - capacity));
}

}  // namespace

RunHistory::RunHistory(std::size_t span_capacity, std::size_t sample_capacity)
    : span_capacity_(std::max<std::size_t>(span_capacity, 1)), sample_capacity_(std::max<std::size_t>(sample_capacity, 1)) {}

void RunHistory::take(const RunFrame& frame) {
    if (frame.first) {
        spans_.clear();
        counters_.clear();
        markers_.clear();
        numa_samples_.clear();
        origin_ = frame.origin;
    }
    seen_ = true;
    append_bounded(spans_, frame.spans, span_capacity_);
    append_bounded(counters_, frame.counters, sample_capacity_);
    markers_.insert(markers_.end(), frame.markers.begin(), frame.markers.end());
    numa_samples_.push_back(frame.numa_sample());
    if (numa_samples_.size() > sample_capacity_) numa_samples_.pop_front();
    summary_ = frame.summary;
}

RunRecord RunHistory::record() const {
    RunRecord record;
    record.summary = summary_;
    record.origin = origin_;
    record.spans.assign(spans_.begin(), spans_.end());
    record.counters.assign(counters_.begin(), counters_.end());
    record.markers = markers_;
    record.numa_samples.assign(numa_samples_.begin(), numa_samples_.end());
    return record;
}

}  // namespace pinscope::ui
