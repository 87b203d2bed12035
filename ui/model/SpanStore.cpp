// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/SpanStore.h"

#include <algorithm>
#include <limits>

#include "engine/export/ExportFormat.h"

namespace pinscope::ui {

SpanStore::SpanStore(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 16)) {}

void SpanStore::clear() {
    lanes_.clear();
    size_ = 0;
    dropped_ = 0;
    latest_end_ = 0;
}

LaneSpans& SpanStore::lane_for(Lane lane) {
    auto it = std::lower_bound(lanes_.begin(), lanes_.end(), lane,
                               [](const LaneSpans& a, Lane b) { return lane_less(a.lane, b); });
    if (it == lanes_.end() || !(it->lane == lane)) it = lanes_.insert(it, LaneSpans{lane, {}, {}, 0, 0, {}});
    return *it;
}

int SpanStore::row_of(Lane lane) const {
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        if (lanes_[i].lane == lane) return static_cast<int>(i);
    return -1;
}

void SpanStore::add(const std::vector<Span>& spans) {
    LaneSpans* last = nullptr;
    for (const Span& span : spans) {
        // Spans come in bursts per lane; avoid the lookup while the lane stays the same.
        if (last == nullptr || !(last->lane == span.lane)) last = &lane_for(span.lane);
        auto& list = last->spans;
        if (list.empty() || list.back().start <= span.start) {
            list.push_back(span);
            last->keys.emplace_back(span);
        } else {
            const auto at = std::upper_bound(list.begin(), list.end(), span.start,
                                             [](TimeNs t, const Span& s) { return t < s.start; });
            last->keys.emplace(last->keys.begin() + (at - list.begin()), span);
            list.insert(at, span);
        }
        last->max_duration = std::max(last->max_duration, span.duration());
        last->latest_end = std::max(last->latest_end, span.end);
        last->summary.add(span);
        latest_end_ = std::max(latest_end_, span.end);
        ++size_;
        // lane_for may insert into lanes_ and move the others: look the lane up again next time.
        if (size_ > capacity_) {
            drop_oldest(capacity_ - capacity_ / 16);  // a sixteenth at once, not one by one
            last = nullptr;
        }
    }
}

// Finds the start time before which dropping every span leaves about `target`, then drops them.
void SpanStore::drop_oldest(std::size_t target) {
    const auto count_before = [&](TimeNs t) {
        std::size_t n = 0;
        for (const auto& lane : lanes_) n += first_starting_at(lane, t);
        return n;
    };
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    for (const auto& lane : lanes_) {
        if (lane.spans.empty()) continue;
        lo = std::min(lo, lane.spans.front().start);
        hi = std::max(hi, lane.spans.back().start);
    }
    const std::size_t excess = size_ - target;
    // Smallest cutoff that drops at least `excess` spans.
    while (lo < hi) {
        const TimeNs mid = lo + (hi - lo) / 2;
        if (count_before(mid + 1) >= excess) hi = mid;
        else lo = mid + 1;
    }
    for (auto& lane : lanes_) {
        const std::size_t n = first_starting_at(lane, lo + 1);
        lane.spans.erase(lane.spans.begin(), lane.spans.begin() + static_cast<std::ptrdiff_t>(n));
        lane.keys.erase(lane.keys.begin(), lane.keys.begin() + static_cast<std::ptrdiff_t>(n));
        size_ -= n;
        dropped_ += n;
    }
}

std::size_t SpanStore::first_starting_at(const LaneSpans& lane, TimeNs time, std::size_t from) {
    const auto begin = lane.spans.begin() + static_cast<std::ptrdiff_t>(std::min(from, lane.spans.size()));
    const auto it = std::lower_bound(begin, lane.spans.end(), time,
                                     [](const Span& s, TimeNs t) { return s.start < t; });
    return static_cast<std::size_t>(it - lane.spans.begin());
}

std::size_t SpanStore::first_ending_after(const LaneSpans& lane, TimeNs time) {
    std::size_t i = first_starting_at(lane, time - lane.max_duration);
    while (i < lane.spans.size() && lane.spans[i].end < time) ++i;
    return i;
}

std::optional<Span> SpanStore::span_at(int row, TimeNs time, TimeNs tolerance) const {
    if (row < 0 || row >= static_cast<int>(lanes_.size())) return std::nullopt;
    const LaneSpans& lane = lanes_[static_cast<std::size_t>(row)];
    std::optional<Span> best;
    TimeNs best_distance = tolerance + 1;
    for (std::size_t i = first_ending_after(lane, time - tolerance); i < lane.spans.size(); ++i) {
        const Span& s = lane.spans[i];
        if (s.start > time + tolerance) break;
        const TimeNs distance = time < s.start ? s.start - time : time > s.end ? time - s.end : 0;
        // Inside beats near; of two spans under the cursor the shorter one is the one you see.
        if (distance < best_distance || (distance == 0 && best && s.duration() < best->duration())) {
            best = s;
            best_distance = distance;
        }
    }
    return best;
}

std::vector<Span> SpanStore::spans_of_batch(std::uint64_t batch, TimeNs around, TimeNs radius) const {
    std::vector<Span> out;
    for (const auto& lane : lanes_) {
        for (std::size_t i = first_ending_after(lane, around - radius); i < lane.spans.size(); ++i) {
            const Span& s = lane.spans[i];
            if (s.start > around + radius) break;
            if (s.batch == batch) out.push_back(s);
        }
    }
    std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    return out;
}

std::vector<Span> SpanStore::all_spans() const {
    std::vector<Span> out;
    out.reserve(size_);
    for (const auto& lane : lanes_) out.insert(out.end(), lane.spans.begin(), lane.spans.end());
    return out;
}

TimeNs SpanStore::earliest_start() const {
    TimeNs earliest = 0;
    bool any = false;
    for (const auto& lane : lanes_) {
        if (lane.spans.empty()) continue;
        earliest = any ? std::min(earliest, lane.spans.front().start) : lane.spans.front().start;
        any = true;
    }
    return earliest;
}

TimeNs SpanStore::earliest_known() const {
    TimeNs earliest = 0;
    bool any = false;
    for (const auto& lane : lanes_) {
        if (lane.summary.empty()) continue;
        earliest = any ? std::min(earliest, lane.summary.earliest()) : lane.summary.earliest();
        any = true;
    }
    return earliest;
}

}  // namespace pinscope::ui
