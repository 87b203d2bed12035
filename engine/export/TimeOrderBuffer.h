// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Puts items that arrive almost in time order into exact order, holding only the recent ones.
// A span reaches the exporters when it ends (a device span even later), but the files list spans
// by their start: an item is held until nothing earlier can still come, which is assumed once the
// newest time seen is `hold` past it. `hold` grows with the longest span seen (twice it, and at
// least 1 s); past kMaxHeld items the oldest go out anyway, so memory stays bounded even then.
#include <algorithm>
#include <cstddef>
#include <deque>
#include <vector>

#include "engine/trace/Span.h"

namespace pinscope {

// Less orders items (a stable sort: equal items keep their arrival order); TimeOf gives the time
// the order starts with.
template <typename Item, typename Less, typename TimeOf>
class TimeOrderBuffer {
public:
    static constexpr TimeNs kMinHold = 1'000'000'000;
    static constexpr std::size_t kMaxHeld = std::size_t{1} << 17;

    // Takes the new items (any order); `span` items widen the hold.
    template <typename Range>
    void add(const Range& items) {
        const std::size_t old_size = held_.size();
        for (const auto& item : items) {
            held_.push_back(item);
            newest_ = std::max(newest_, TimeOf{}(held_.back()));
        }
        const auto middle = held_.begin() + static_cast<std::ptrdiff_t>(old_size);
        std::stable_sort(middle, held_.end(), Less{});
        std::inplace_merge(held_.begin(), middle, held_.end(), Less{});
    }

    // A span's duration (or any delay an item may arrive late by) seen: holds items longer.
    void widen_hold(TimeNs delay) { hold_ = std::max(hold_, 2 * delay); }

    // Hands `emit` every item that can no longer be preceded by a later arrival, in order.
    template <typename Emit>
    void release_ready(Emit&& emit) {
        const TimeNs before = newest_ - hold_;
        while (!held_.empty() && (TimeOf{}(held_.front()) < before || held_.size() > kMaxHeld)) {
            emit(held_.front());
            held_.pop_front();
        }
    }

    // At the end: everything, in order.
    template <typename Emit>
    void release_all(Emit&& emit) {
        for (const auto& item : held_) emit(item);
        held_.clear();
    }

    std::size_t held() const { return held_.size(); }

private:
    std::deque<Item> held_;
    TimeNs newest_ = 0;
    TimeNs hold_ = kMinHold;
};

}  // namespace pinscope
