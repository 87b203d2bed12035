#include "metrics/MetricsTracker.h"

#include <algorithm>

namespace pinscope {
namespace {

constexpr TimeNs kSecond = 1'000'000'000;

bool is_data_wait(const Span& span) {
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
            computes_.push_back({span.end, span.bytes, batch_size_});
            ++batches_;
            samples_ += batch_size_;
        } else if (span.stage == Stage::H2D) {
            copy_.add(span.start, span.end);
            copies_.push_back({span.end, span.bytes, 0});
            h2d_bytes_ += static_cast<double>(span.bytes);
        } else if (is_data_wait(span)) {
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
    return Totals{compute_.length_in(from, to), copy_.length_in(from, to), copy_.overlap_in(compute_, from, to),
                  wait_.length_in(from, to), held_.length_in(from, to)};
}

void MetricsTracker::fold_old(TimeNs now) {
    // Spans reach the tracker a little after they end (device spans once the consumer sees them
    // complete), so only what lies a retention period back is final.
    const TimeNs cut = now - retention_;
    if (cut <= folded_until_) return;
    const Totals t = totals_in(folded_until_, cut);
    folded_.compute += t.compute;
    folded_.copy += t.copy;
    folded_.hidden += t.hidden;
    folded_.wait += t.wait;
    folded_.held += t.held;
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
    m.data_wait = fraction(t.wait, wall);
    m.host_held = fraction(t.held, wall);
    return m;
}

Metrics MetricsTracker::whole_run(TimeNs now) const {
    Totals t = totals_in(folded_until_, now);
    t.compute += folded_.compute;
    t.copy += folded_.copy;
    t.hidden += folded_.hidden;
    t.wait += folded_.wait;
    t.held += folded_.held;
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
