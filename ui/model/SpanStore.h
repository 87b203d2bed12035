// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The spans the window shows, one sorted sequence per lane, in bounded memory: past `capacity`
// the oldest spans go; each lane's LaneSummary (busy time per stage in bounded bins) keeps what
// every span held, so that the whole run can still be drawn. Lanes are kept in display order
// (workers, pin thread, consumer, copy stream, compute stream), and each lane is sorted by start so
// that the visible part of a lane is found by binary search. Plain C++ (no Qt), GUI thread only.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "engine/trace/Span.h"
#include "ui/model/LaneSummary.h"

namespace pinscope::ui {

// What folding reads of a span, 16 bytes kept beside it: a whole-run view reads every span's key,
// and reading a third of the memory takes about a third of the time.
struct FoldKey {
    TimeNs start = 0;
    std::uint64_t packed = 0;  // the end in the low 59 bits (two's complement), the stage above
    explicit FoldKey(const Span& span)
        : start(span.start),
          packed((static_cast<std::uint64_t>(span.end) & ((std::uint64_t{1} << 59) - 1)) |
                 (static_cast<std::uint64_t>(span.stage) << 59)) {}
    TimeNs end() const { return static_cast<TimeNs>(packed << 5) >> 5; }
    Stage stage() const { return static_cast<Stage>(packed >> 59); }
};

struct LaneSpans {
    Lane lane;
    std::deque<Span> spans;   // sorted by start
    std::deque<FoldKey> keys; // keys[i] is spans[i]'s
    TimeNs max_duration = 0;  // longest span ever added: how far back a visible span can start
    TimeNs latest_end = 0;    // end of the latest span ever added
    LaneSummary summary;      // of every span the lane had, kept or let go
};

class SpanStore {
public:
    static constexpr std::size_t kDefaultCapacity = 2'000'000;

    explicit SpanStore(std::size_t capacity = kDefaultCapacity);

    void add(const std::vector<Span>& spans);
    void clear();

    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    std::uint64_t dropped() const { return dropped_; }  // spans let go to stay within capacity
    bool empty() const { return size_ == 0; }

    const std::vector<LaneSpans>& lanes() const { return lanes_; }
    // Row of a lane in display order, or -1 when the store has never had a span on it.
    int row_of(Lane lane) const;

    // Index of the first span of `lane` that may end at or after `time` (binary search).
    static std::size_t first_ending_after(const LaneSpans& lane, TimeNs time);
    // Index of the first span of `lane` that starts at or after `time`.
    static std::size_t first_starting_at(const LaneSpans& lane, TimeNs time, std::size_t from = 0);

    // The span on `row` under `time`, or the nearest one within `tolerance`.
    std::optional<Span> span_at(int row, TimeNs time, TimeNs tolerance) const;
    // Every span of `batch` that lies within `radius` of `around`, sorted by start.
    std::vector<Span> spans_of_batch(std::uint64_t batch, TimeNs around, TimeNs radius) const;
    // All spans kept, lane by lane (exporters sort them themselves).
    std::vector<Span> all_spans() const;

    TimeNs earliest_start() const;  // of the spans kept; 0 when empty
    TimeNs earliest_known() const;  // of every span the store had, kept or let go
    TimeNs latest_end() const { return latest_end_; }

private:
    LaneSpans& lane_for(Lane lane);
    void drop_oldest(std::size_t target);

    std::size_t capacity_;
    std::size_t size_ = 0;
    std::uint64_t dropped_ = 0;
    TimeNs latest_end_ = 0;
    std::vector<LaneSpans> lanes_;
};

}  // namespace pinscope::ui
