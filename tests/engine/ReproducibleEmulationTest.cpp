// SPDX-License-Identifier: GPL-3.0-or-later
// With the modelled host, the emulated device gives the same figures run after run, paced to the
// wall clock or not, on an idle machine and on one whose cores are all busy: in a classroom every
// laptop shows the same lesson (issue 17; docs/benchmarks.md, "Reproducible emulation").
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/runner/Runner.h"
#include "tests/engine/ImagenetBatches.h"
#include "tests/support/CpuHogs.h"

namespace pinscope {
namespace {

using test::imagenet_batches;

struct Figures {
    std::uint64_t batches = 0;
    double batches_per_s = 0;
    double gpu_busy = 0;
    double copy_hidden = 0;
    double window_batches_per_s = 0;
    Resource bottleneck = Resource::None;
    std::int64_t pinned_peak = 0;
    double mean_in_flight = 0;  // from the counters the observer sampled
    // Every span (stage, lane, batch, start and end from the origin), sorted: the whole timeline.
    std::vector<std::tuple<int, int, int, std::uint64_t, TimeNs, TimeNs>> spans;
    friend bool operator==(const Figures&, const Figures&) = default;
};

std::ostream& operator<<(std::ostream& out, const Figures& f) {
    return out << f.batches << " batches, " << f.batches_per_s << " batches/s, GPU busy " << f.gpu_busy
               << ", copy hidden " << f.copy_hidden << ", window " << f.window_batches_per_s << " batches/s, bottleneck "
               << static_cast<int>(f.bottleneck) << ", pinned peak " << f.pinned_peak << ", in flight " << f.mean_in_flight
               << ", " << f.spans.size() << " spans";
}

Figures run(const LoaderConfig& config, RunClock::Pace pace) {
    RunnerOptions options;
    options.pace = pace;
    Runner runner(options);
    runner.start(config);
    runner.wait();
    const RunSummary s = runner.summary();
    EXPECT_TRUE(s.error.empty()) << s.error;
    TraceReader reader(*runner.trace());
    TraceDelta delta;
    reader.poll(delta);
    double in_flight = 0;
    int samples = 0;
    for (const CounterSample& sample : delta.counters)
        if (sample.counter == Counter::InFlightBatches) {
            in_flight += sample.value;
            ++samples;
        }
    Figures figures{s.metrics.batches,
                    s.metrics.batches_per_s,
                    s.metrics.gpu_busy,
                    s.metrics.copy_hidden,
                    runner.window_metrics().batches_per_s,
                    s.bottleneck.resource,
                    s.pinned.reserved_bytes.peak,
                    samples > 0 ? in_flight / samples : 0,
                    {}};
    for (const Span& span : delta.spans)
        figures.spans.emplace_back(static_cast<int>(span.stage), static_cast<int>(span.lane.kind), span.lane.index,
                                   span.batch, span.start - runner.origin(), span.end - runner.origin());
    std::sort(figures.spans.begin(), figures.spans.end());
    return figures;
}

LoaderConfig short_run(LoaderConfig config) {
    config.seconds = 1.0;
    return config;
}

LoaderConfig with_pin_mode(LoaderConfig config, PinMode mode) {
    config.pin_mode = mode;
    return config;
}

// The benchmark's configurations: transfer-bound, loader-bound, many pageable workers, register.
std::vector<LoaderConfig> configurations() {
    LoaderConfig pageable = imagenet_batches(6, false, 50, 3000);
    pageable.dtype = DType::U8;
    pageable.batch_size = 256;
    return {short_run(imagenet_batches(4, true, 0, 2000)), short_run(imagenet_batches(0, true, 300, 10000)),
            short_run(pageable), short_run(with_pin_mode(imagenet_batches(4, true, 0, 2000), PinMode::Register))};
}

TEST(ReproducibleEmulation, TheSameConfigurationGivesTheSameFiguresEveryRun) {
    for (const LoaderConfig& config : configurations()) {
        const Figures first = run(config, RunClock::Pace::Unpaced);
        EXPECT_GT(first.batches, 0u);
        EXPECT_EQ(run(config, RunClock::Pace::Unpaced), first);
    }
}

TEST(ReproducibleEmulation, EveryCoreBusyChangesNothing) {
    std::vector<Figures> idle;
    for (const LoaderConfig& config : configurations()) idle.push_back(run(config, RunClock::Pace::Unpaced));
    const test::CpuHogs hogs;
    for (std::size_t k = 0; k < idle.size(); ++k) EXPECT_EQ(run(configurations()[k], RunClock::Pace::Unpaced), idle[k]);
}

TEST(ReproducibleEmulation, PacedToTheWallClockGivesWhatUnpacedGives) {
    const LoaderConfig config = configurations().front();
    const Figures unpaced = run(config, RunClock::Pace::Unpaced);
    const test::CpuHogs hogs;  // the live view falls behind; the figures do not
    EXPECT_EQ(run(config, RunClock::Pace::WallClock), unpaced);
}

}  // namespace
}  // namespace pinscope
