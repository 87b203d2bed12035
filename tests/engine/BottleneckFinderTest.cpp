// SPDX-License-Identifier: GPL-3.0-or-later
// The bottleneck's arithmetic on made-up spans: utilisation is busy time over the range, the cost
// per batch is busy time over the batches handled, the bound is lanes over that cost, and the
// resource named is the one near 100 % (or the limit threads waited on).
#include <gtest/gtest.h>

#include "engine/analysis/BottleneckFinder.h"
#include "engine/config/PinnedBudget.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr TimeNs kMs = 1'000'000;

Span span(LaneKind kind, std::uint16_t index, Stage stage, std::uint64_t batch, TimeNs start, TimeNs end,
          std::uint64_t bytes = 0) {
    Span s;
    s.lane = {kind, index};
    s.stage = stage;
    s.batch = batch;
    s.start = start;
    s.end = end;
    s.bytes = bytes;
    return s;
}

Metrics metrics_of(double batches_per_s, double gpu_starved = 0.5) {
    Metrics m;
    m.batches_per_s = batches_per_s;
    m.gpu_starved = gpu_starved;
    return m;
}

const ResourceUse& row(const Bottleneck& b, const std::string& name) {
    for (const ResourceUse& use : b.resources)
        if (use.name == name) return use;
    throw std::runtime_error("no row " + name);
}

LoaderConfig pool_config() {
    LoaderConfig config;
    config.num_workers = 2;
    config.batch_size = 1;
    config.sample_shape = {1024, 1024};  // 4 MiB batches
    return config;
}

TEST(BottleneckFinder, PinThreadBusyFourOfFiveMillisecondsIsUtilisationEightyAndBoundTwoHundredFifty) {
    // Over 100 ms, the pin thread copies 20 batches of 4 ms each, one every 5 ms: 80 % busy,
    // 4 ms a batch, at most 250 batches/s. Workers are busy 1 ms a batch each, the GPU 2 ms.
    std::vector<Span> spans;
    for (std::uint64_t b = 0; b < 20; ++b) {
        const TimeNs t = static_cast<TimeNs>(b) * 5 * kMs;
        spans.push_back(span(LaneKind::Worker, b % 2, Stage::Collate, b, t, t + kMs, 4 * kMiB));
        spans.push_back(span(LaneKind::PinThread, 0, Stage::Pin, b, t, t + 4 * kMs, 4 * kMiB));
        spans.push_back(span(LaneKind::CopyStream, 0, Stage::H2D, b, t + 4 * kMs, t + 4 * kMs + kMs / 2, 4 * kMiB));
        spans.push_back(span(LaneKind::ComputeStream, 0, Stage::Compute, b, t + 4 * kMs, t + 6 * kMs));
    }
    const SpanUsage usage = usage_of(spans, {}, 0, 100 * kMs, 4);
    const Bottleneck b = find_bottleneck(usage, metrics_of(200, 0.6), pool_config(), 1 * kGiB, "the run");
    EXPECT_EQ(b.resource, Resource::PinThread);
    EXPECT_TRUE(b.saturated);
    EXPECT_DOUBLE_EQ(b.utilisation, 0.8);
    EXPECT_DOUBLE_EQ(b.per_batch_s, 0.004);
    EXPECT_DOUBLE_EQ(b.bound_batches_per_s, 250.0);
    EXPECT_DOUBLE_EQ(row(b, "workers").utilisation, 0.1);  // 20 ms over 2 lanes x 100 ms
    EXPECT_DOUBLE_EQ(row(b, "workers").bound_batches_per_s, 2000.0);
    EXPECT_DOUBLE_EQ(row(b, "worker 0").utilisation, 0.1);
    EXPECT_DOUBLE_EQ(row(b, "copy engine").per_batch_s, 0.0005);
    EXPECT_EQ(b.evidence,
              "Bound by the pin thread: busy 80 % of the run copying 4 MiB batches into page-locked memory at "
              "1.0 GB/s (4.00 ms per batch in all, at most 250 batches/s). The GPU waited 60 % of the time.");
}

TEST(BottleneckFinder, SpansAreClippedToTheRange) {
    const std::vector<Span> spans{span(LaneKind::ComputeStream, 0, Stage::Compute, 0, 0, 10 * kMs),
                                  span(LaneKind::ComputeStream, 0, Stage::Compute, 1, 10 * kMs, 20 * kMs)};
    const SpanUsage usage = usage_of(spans, {}, 5 * kMs, 15 * kMs, 0);
    EXPECT_EQ(usage.at(LaneKind::ComputeStream, Stage::Compute).busy, 10 * kMs);
    EXPECT_EQ(usage.at(LaneKind::ComputeStream, Stage::Compute).ended, 1u);  // batch 1 ends after the range
}

TEST(BottleneckFinder, PinThreadMostlyAllocatingIsPageLocking) {
    LoaderConfig config = pool_config();
    config.pin_mode = PinMode::Alloc;
    std::vector<Span> spans;
    for (std::uint64_t b = 0; b < 10; ++b) {
        const TimeNs t = static_cast<TimeNs>(b) * 10 * kMs;
        spans.push_back(span(LaneKind::PinThread, 0, Stage::Alloc, b, t, t + 7 * kMs, 4 * kMiB));
        spans.push_back(span(LaneKind::PinThread, 0, Stage::Pin, b, t + 7 * kMs, t + 10 * kMs, 4 * kMiB));
        spans.push_back(span(LaneKind::ComputeStream, 0, Stage::Compute, b, t + 9 * kMs, t + 10 * kMs));
    }
    const Bottleneck b = find_bottleneck(usage_of(spans, {}, 0, 100 * kMs, 4), metrics_of(100), config, kGiB, "the run");
    EXPECT_EQ(b.resource, Resource::PageLocking);
    EXPECT_DOUBLE_EQ(b.utilisation, 1.0);
    EXPECT_DOUBLE_EQ(b.bound_batches_per_s, 100.0);
    EXPECT_NE(b.evidence.find("70 % of it allocating"), std::string::npos) << b.evidence;
}

TEST(BottleneckFinder, BudgetWaitsWithNothingSaturatedNameThePinnedBudget) {
    // Two 4 MiB blocks, 1.8 in use on average, 60 batches/s: each held 30 ms, at most 66.7/s.
    const LoaderConfig config = pool_config();
    const std::uint64_t block = worst_case_pinned(config).block_bytes;
    std::vector<Span> spans;
    for (std::uint64_t b = 0; b < 6; ++b) {
        const TimeNs t = static_cast<TimeNs>(b) * 16 * kMs;
        spans.push_back(span(LaneKind::PinThread, 0, Stage::Pin, b, t, t + 4 * kMs, 4 * kMiB));
        spans.push_back(span(LaneKind::ComputeStream, 0, Stage::Compute, b, t + 6 * kMs, t + 8 * kMs));
    }
    std::vector<CounterSample> counters;
    for (TimeNs t = 0; t < 100 * kMs; t += 10 * kMs)
        counters.push_back({t, 1.8 * static_cast<double>(block), Counter::PinnedInUseBytes});
    SpanUsage usage = usage_of(spans, counters, 0, 100 * kMs, 4);
    usage.budget_waits = 5;
    const Bottleneck b = find_bottleneck(usage, metrics_of(60), config, 2 * block, "the last second");
    EXPECT_EQ(b.resource, Resource::PinnedBudget);
    EXPECT_DOUBLE_EQ(b.utilisation, 0.9);
    EXPECT_NEAR(b.per_batch_s, 0.03, 1e-12);
    EXPECT_NEAR(b.bound_batches_per_s, 66.666666, 1e-4);
    EXPECT_NE(b.evidence.find("8 MiB holds 2 blocks of 4 MiB"), std::string::npos) << b.evidence;
    EXPECT_NE(b.evidence.find("5 allocations waited"), std::string::npos) << b.evidence;
}

TEST(BottleneckFinder, CreditsHeldWithNothingSaturatedNameTheBatchCredits) {
    const LoaderConfig config = pool_config();  // 2 workers x 2 = 4 credits
    std::vector<Span> spans;
    for (std::uint64_t b = 0; b < 5; ++b) {
        const TimeNs t = static_cast<TimeNs>(b) * 20 * kMs;
        spans.push_back(span(LaneKind::Worker, 0, Stage::Load, b, t, t + 5 * kMs));
        spans.push_back(span(LaneKind::ComputeStream, 0, Stage::Compute, b, t + 10 * kMs, t + 12 * kMs));
    }
    std::vector<CounterSample> counters;
    for (TimeNs t = 0; t < 100 * kMs; t += 10 * kMs) counters.push_back({t, 4, Counter::InFlightBatches});
    const SpanUsage usage = usage_of(spans, counters, 0, 100 * kMs, 4);
    EXPECT_EQ(usage.in_flight_limit_samples, 10u);
    const Bottleneck b = find_bottleneck(usage, metrics_of(50), config, kGiB, "the run");
    EXPECT_EQ(b.resource, Resource::BatchCredits);
    EXPECT_DOUBLE_EQ(b.per_batch_s, 4.0 / 50);  // Little's law: 4 held / 50 per s
    EXPECT_DOUBLE_EQ(b.bound_batches_per_s, 50.0);
}

TEST(BottleneckFinder, NothingRanSaysSo) {
    const Bottleneck b = find_bottleneck(SpanUsage(0, kMs), Metrics{}, pool_config(), kGiB, "the last second");
    EXPECT_EQ(b.resource, Resource::None);
    EXPECT_EQ(b.evidence, "Nothing ran in the last second.");
}

}  // namespace
}  // namespace pinscope
