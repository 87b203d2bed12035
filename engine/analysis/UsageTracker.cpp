// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/UsageTracker.h"

#include <algorithm>

namespace pinscope {
namespace {

constexpr TimeNs kSecond = 1'000'000'000;

}  // namespace

UsageTracker::UsageTracker(TimeNs origin, double window_s)
    : origin_(origin),
      window_(static_cast<TimeNs>(window_s * 1e9)),
      // Device spans arrive once the consumer sees them complete: keep what a late one may need.
      retention_(std::max<TimeNs>(2 * kSecond, 3 * window_)),
      run_(origin, SpanUsage::kOpenEnd) {}

void UsageTracker::add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters,
                       std::uint32_t credit_limit) {
    for (const Span& span : spans) {
        run_.add(span);
        spans_.push_back(span);
        latest_ = std::max(latest_, span.end);
    }
    for (const CounterSample& sample : counters) {
        run_.add(sample, credit_limit);
        counters_.push_back({sample, credit_limit});
        latest_ = std::max(latest_, sample.time);
    }
    forget_old();
}

void UsageTracker::note_budget_waits(TimeNs now, std::uint64_t pool_total) {
    const std::uint64_t before = waits_.empty() ? 0 : waits_.back().second;
    const std::uint64_t added = pool_total >= pool_waits_ ? pool_total - pool_waits_ : pool_total;
    pool_waits_ = pool_total;
    waits_.emplace_back(now, before + added);
    while (waits_.size() > 2 && waits_[1].first <= now - retention_) waits_.pop_front();
}

void UsageTracker::forget_old() {
    const TimeNs cut = latest_ - retention_;
    while (!spans_.empty() && spans_.front().end < cut) spans_.pop_front();
    while (!counters_.empty() && counters_.front().sample.time < cut) counters_.pop_front();
}

SpanUsage UsageTracker::whole_run(TimeNs now) const {
    SpanUsage usage = run_;
    usage.to = std::max(now, origin_);
    usage.budget_waits = waits_.empty() ? 0 : waits_.back().second;
    return usage;
}

SpanUsage UsageTracker::window(TimeNs now) const {
    SpanUsage usage(std::max(origin_, now - window_), now);
    for (const Span& span : spans_) usage.add(span);
    for (const Sample& sample : counters_) usage.add(sample.sample, sample.credit_limit);
    if (!waits_.empty()) {
        std::uint64_t before = 0;
        for (const auto& [time, total] : waits_)
            if (time <= usage.from) before = total;
        usage.budget_waits = waits_.back().second - before;
    }
    return usage;
}

}  // namespace pinscope
