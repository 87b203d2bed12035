// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/metrics/MetricsTracker.h"

#include <algorithm>

namespace pinscope {
namespace {

constexpr TimeNs kSecond = 1'000'000'000;

bool is_consumer_wait(const Span& span) {
    if (span.lane.kind != LaneKind::Consumer) return false;
    // Without workers the consumer builds each batch itself: that is its wait for data.
    switch (span.stage) {
        case Stage::Wait: case Stage::Load: case Stage::Collate: case Stage::Pin: case Stage::Alloc: return true;
        default: return false;
    }
}

bool is_host_held(const Span& span) {
    return span.lane.kind == LaneKind::Consumer && (span.stage == Stage::Staging || span.stage == Stage::Sync);
}

double fraction(TimeNs part, TimeNs whole) {
    return whole > 0 ? std::clamp(static_cast<double>(part) / static_cast<double>(whole), 0.0, 1.0) : 0.0;
}

}  // namespace

MetricsTracker::MetricsTracker(TimeNs origin, double window_s)
    : origin_(origin),
      window_(static_cast<TimeNs>(window_s * 1e9)),
      retention_(std::max<TimeNs>(2 * kSecond, 3 * window_)),
      folded_until_(origin) {}

void MetricsTracker::add(const std::vector<Span>& spans) {
    for (const Span& span : spans) {
        if (span.stage == Stage::Compute) {
            compute_.add(span.start, span.end);
            first_compute_start_ = computed_ ? std::min(first_compute_start_, span.start) : span.start;
            last_compute_end_ = computed_ ? std::max(last_compute_end_, span.end) : span.end;
            computed_ = true;
            computes_.push_back({span.end, span.bytes, batch_size_});
            ++batches_;
            samples_ += batch_size_;
        } else if (span.stage == Stage::H2D) {
            copy_.add(span.start, span.end);
            copies_.push_back({span.end, span.bytes, 0});
            h2d_bytes_ += static_cast<double>(span.bytes);
        } else if (is_consumer_wait(span)) {
            wait_.add(span.start, span.end);
        } else if (is_host_held(span)) {
            held_.add(span.start, span.end);
        }
        latest_end_ = std::max(latest_end_, span.end);
    }
    fold_old(latest_end_);
}

MetricsTracker::Totals MetricsTracker::totals_in(TimeNs from, TimeNs to) const {
    if (to <= from) return {};
    Totals t;
    t.compute = compute_.length_in(from, to);
    t.copy = copy_.length_in(from, to);
    t.hidden = copy_.overlap_in(compute_, from, to);
    t.wait = wait_.length_in(from, to);
    t.held = held_.length_in(from, to);
    const TimeNs lo = std::max(from, first_compute_start_);
    const TimeNs hi = std::min(to, last_compute_end_);
    if (computed_ && hi > lo) {
        t.starved = (hi - lo) - compute_.length_in(lo, hi);
        t.starved_copy = copy_.length_in(lo, hi) - copy_.overlap_in(compute_, lo, hi);
    }
    return t;
}

void MetricsTracker::Totals::add(const Totals& other) {
    compute += other.compute;
    copy += other.copy;
    hidden += other.hidden;
    wait += other.wait;
    held += other.held;
    starved += other.starved;
    starved_copy += other.starved_copy;
}

void MetricsTracker::fold_old(TimeNs now) {
    // Spans reach the tracker a little after they end (device spans once the consumer sees them
    // complete), so only what lies a retention period back is final. Nor is what follows the
    // latest kernel end: idle time there is starving only if another kernel comes, so it waits.
    if (!computed_) return;
    const TimeNs cut = std::min(now - retention_, last_compute_end_);
    if (cut <= folded_until_) return;
    folded_.add(totals_in(folded_until_, cut));
    folded_until_ = cut;
    for (IntervalSet* set : {&compute_, &copy_, &wait_, &held_}) set->drop_before(cut);
    for (auto* events : {&computes_, &copies_})
        while (!events->empty() && events->front().end < cut) events->pop_front();
}

Metrics MetricsTracker::over(TimeNs from, TimeNs to, const Totals& t, std::uint64_t batches, std::uint64_t samples,
                             double h2d_bytes) const {
    Metrics m;
    m.begin = from;
    m.end = to;
    const TimeNs wall = std::max<TimeNs>(0, to - from);
    m.wall_s = static_cast<double>(wall) / 1e9;
    m.batches = batches;
    m.samples = samples;
    m.h2d_bytes = h2d_bytes;
    if (m.wall_s > 0) {
        m.batches_per_s = static_cast<double>(batches) / m.wall_s;
        m.samples_per_s = static_cast<double>(samples) / m.wall_s;
        m.h2d_gb_per_s = h2d_bytes / m.wall_s / 1e9;
    }
    m.gpu_busy = fraction(t.compute, wall);
    m.copy_hidden = fraction(t.hidden, t.copy);
    m.gpu_starved_copy = fraction(t.starved_copy, wall);
    m.gpu_starved_host = fraction(t.starved - t.starved_copy, wall);
    m.gpu_starved = m.gpu_starved_copy + m.gpu_starved_host;
    m.consumer_wait = fraction(t.wait, wall);
    m.host_held = fraction(t.held, wall);
    return m;
}

Metrics MetricsTracker::whole_run(TimeNs now) const {
    Totals t = totals_in(folded_until_, now);
    t.add(folded_);
    return over(origin_, now, t, batches_, samples_, h2d_bytes_);
}

Metrics MetricsTracker::window(TimeNs now) const {
    const TimeNs from = std::max(origin_, now - window_);
    std::uint64_t batches = 0, samples = 0;
    double bytes = 0;
    for (auto it = computes_.rbegin(); it != computes_.rend() && it->end >= from; ++it) {
        if (it->end > now) continue;
        ++batches;
        samples += it->samples;
    }
    for (auto it = copies_.rbegin(); it != copies_.rend() && it->end >= from; ++it)
        if (it->end <= now) bytes += static_cast<double>(it->bytes);
    return over(from, now, totals_in(from, now), batches, samples, bytes);
}

}  // namespace pinscope
