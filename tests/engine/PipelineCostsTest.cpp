// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrate's measurements of what the pipeline's own calls cost where it makes them: short runs
// with the real host at each size, whose frees or page-locking calls it takes the median of.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/calibrate/PipelineCosts.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

void expect_a_plausible_cost_at_each_size(const SizeCurve& curve) {
    ASSERT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB, 4 * kMiB}));
    ASSERT_EQ(curve.values.size(), 2u);
    for (const double us : curve.values) {
        EXPECT_GT(us, 0.0);
        EXPECT_LT(us, 1e6);
    }
}

TEST(PipelineCosts, EachSizeIsTheMedianFreeOfARealPipelinesPinThread) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::FreeWorkersBatch, {kMiB, 4 * kMiB}, 0.6));
}

TEST(PipelineCosts, ThePoolRunAlsoGivesItsWorkersFillingAndCollatingAtEachSize) {
    WorkerRates workers;
    measure_pipeline_costs_us("emulated", PipelineCost::FreeWorkersBatch, {kMiB, 4 * kMiB}, 0.6, {}, &workers);
    for (const SizeCurve* rates : {&workers.fill_gb_per_s, &workers.collate_gb_per_s}) {
        ASSERT_EQ(rates->sizes_bytes, (std::vector<double>{kMiB, 4 * kMiB}));
        for (const double gb_per_s : rates->values) {
            EXPECT_GT(gb_per_s, 0.01);
            EXPECT_LT(gb_per_s, 1000.0);
        }
    }
}

// A worker's load span is its filling (the runs do no CPU work): bytes over time, the median of
// those after the run settled, on the workers' lanes only; its collate spans likewise.
TEST(PipelineCosts, WorkersRatesAreTheMediansOfTheirSpansOfThatStage) {
    const auto load = [](LaneKind lane, TimeNs start, TimeNs end, std::uint64_t bytes, Stage stage = Stage::Load) {
        Span span;
        span.stage = stage;
        span.lane.kind = lane;
        span.start = start;
        span.end = end;
        span.bytes = bytes;
        return span;
    };
    const std::vector<Span> spans{
        load(LaneKind::Worker, 0, 1'000, 1'000'000),           // before the run settled: 1000 GB/s, left out
        load(LaneKind::Worker, 100'000, 200'000, 1'000'000),   // 10 GB/s
        load(LaneKind::Worker, 300'000, 500'000, 1'000'000),   // 5
        load(LaneKind::Worker, 600'000, 650'000, 1'000'000),   // 20
        load(LaneKind::Consumer, 700'000, 700'010, 1'000'000),  // not a worker's
        load(LaneKind::Worker, 200'000, 1'200'000, 1'000'000, Stage::Collate)  // 1, a collate
    };
    EXPECT_EQ(median_worker_gb_per_s(spans, Stage::Load, 100'000), 10.0);
    EXPECT_FALSE(median_worker_gb_per_s(spans, Stage::Load, 800'000).has_value());
    EXPECT_EQ(median_worker_gb_per_s(spans, Stage::Collate, 100'000), 1.0);
}

TEST(PipelineCosts, EachSizeIsTheMedianRegisterOfARealPipelinesBatches) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::HostRegister, {kMiB, 4 * kMiB}, 0.6));
}

TEST(PipelineCosts, EachSizeIsTheMedianAllocOfARealPipelinesBatches) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::HostAlloc, {kMiB, 4 * kMiB}, 0.6));
}

TEST(PipelineCosts, EachSizeIsTheMedianAllocOfThePinThreadWithWorkersRunning) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::HostAllocWithWorkers, {kMiB, 4 * kMiB}, 0.6));
}

Span call(Stage stage, LaneKind lane, TimeNs start, TimeNs end) {
    Span span;
    span.stage = stage;
    span.lane.kind = lane;
    span.start = start;
    span.end = end;
    return span;
}

// With workers the pin thread's cudaHostAlloc may wait while the consumer's cudaFreeHost holds the
// driver; the model makes it wait itself, so the figure leaves that time out where calibrate found
// the driver serialises the two, and keeps it where it did not.
TEST(PipelineCosts, AllocWithWorkersLeavesOutItsWaitsBehindTheConsumersFrees) {
    const std::vector<Span> spans{
        call(Stage::Alloc, LaneKind::PinThread, 0, 50'000),  // before the run settled: left out
        call(Stage::Alloc, LaneKind::PinThread, 100'000, 110'000),
        call(Stage::Free, LaneKind::Consumer, 104'000, 108'000),  // 4 us of the alloc's 10
        call(Stage::Alloc, LaneKind::PinThread, 200'000, 210'000),
        call(Stage::Free, LaneKind::Consumer, 195'000, 202'000),  // 2 us
        call(Stage::Free, LaneKind::Consumer, 209'000, 215'000),  // and 1 us more
        call(Stage::Alloc, LaneKind::PinThread, 300'000, 306'000),
        call(Stage::Alloc, LaneKind::Consumer, 400'000, 490'000),  // not the pin thread's
        call(Stage::Free, LaneKind::PinThread, 301'000, 305'000),  // the pin thread's own: not a wait
    };
    DriverLock serialised;
    serialised.during_free_host.host_alloc = true;
    EXPECT_EQ(median_cost_us(spans, PipelineCost::HostAllocWithWorkers, 100'000, serialised), 6.0);  // 6, 7, 6
    DriverLock waits_only_while_the_free_waits;
    waits_only_while_the_free_waits.while_free_waits.host_alloc = true;
    EXPECT_EQ(median_cost_us(spans, PipelineCost::HostAllocWithWorkers, 100'000, waits_only_while_the_free_waits), 6.0);
    EXPECT_EQ(median_cost_us(spans, PipelineCost::HostAllocWithWorkers, 100'000, DriverLock{}), 10.0);  // 10, 10, 6
    EXPECT_EQ(median_cost_us(spans, PipelineCost::HostAlloc, 100'000, serialised), 90.0) << "no workers: the consumer's";
    EXPECT_FALSE(median_cost_us(spans, PipelineCost::HostAllocWithWorkers, 400'000, serialised).has_value());
}

// The alloc run's pin thread frees each worker's batch after copying it into the new block: beside
// the cost, the run gives the median of those frees after it settled, as they are.
TEST(PipelineCosts, TheAllocRunAlsoGivesThePinThreadsFreesOfTheWorkersBatches) {
    const SizeRunner run = [](std::size_t, double) {
        SizeRun measured;
        measured.settled = 100'000;
        measured.spans = {call(Stage::Alloc, LaneKind::PinThread, 100'000, 110'000),
                          call(Stage::Free, LaneKind::PinThread, 50'000, 90'000),    // before it settled: left out
                          call(Stage::Free, LaneKind::PinThread, 120'000, 123'000),  // 3 us
                          call(Stage::Free, LaneKind::PinThread, 220'000, 227'000),  // 7
                          call(Stage::Free, LaneKind::PinThread, 320'000, 325'000),  // 5
                          call(Stage::Free, LaneKind::Consumer, 121'000, 150'000)};  // a cudaFreeHost: not the pin thread's
        return std::optional<SizeRun>{measured};
    };
    WorkerRates workers;
    measure_pipeline_costs_us(run, PipelineCost::HostAllocWithWorkers, {kMiB, 4 * kMiB}, 0.5, {}, &workers);
    EXPECT_EQ(workers.batch_free_us.sizes_bytes, (std::vector<double>{kMiB, 4 * kMiB}));
    EXPECT_EQ(workers.batch_free_us.values, (std::vector<double>{5.0, 5.0}));
}

// A batch whose run would lock more than a quarter of this machine's memory is left out, the
// sizes below it measured all the same (16 GiB batches would lock 112 GiB).
TEST(PipelineCosts, ASizeBeyondThePinnedBudgetIsLeftOut) {
    const SizeCurve curve = measure_pipeline_costs_us("emulated", PipelineCost::FreeWorkersBatch, {kMiB, 16 * kGiB}, 0.6);
    EXPECT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB}));
    EXPECT_EQ(curve.values.size(), 1u);
}

// Calibrate's step fills the three curves and its source says what ran, at which sizes; a
// profile the step did not measure says nothing of it.
TEST(PipelineCosts, CalibratesStepFillsEachCurveAndSaysWhatRan) {
    HardwareProfile profile;
    EXPECT_EQ(pipeline_costs_text(profile, "emulated", true), "");
    measure_pipeline_costs("emulated", true, profile);
    for (const SizeCurve* curve : {&profile.pipeline_free_us, &profile.pipeline_host_register_us,
                                   &profile.pipeline_host_alloc_us, &profile.pipeline_host_alloc_workers_us}) {
        EXPECT_EQ(curve->sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
        ASSERT_EQ(curve->values.size(), 2u);
        EXPECT_GT(curve->values[0], 0.0);
    }
    EXPECT_EQ(profile.pipeline_worker_fill_gb_per_s.sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
    EXPECT_EQ(profile.pipeline_worker_collate_gb_per_s.sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
    EXPECT_EQ(profile.pipeline_alloc_workers_fill_gb_per_s.sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
    EXPECT_EQ(profile.pipeline_alloc_workers_collate_gb_per_s.sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
    // The alloc run's pin thread frees each worker's batch after copying it: recorded beside the alloc.
    EXPECT_EQ(profile.pipeline_alloc_workers_free_us.sizes_bytes, (std::vector<double>{2 * kMiB, 32 * kMiB}));
    ASSERT_EQ(profile.pipeline_alloc_workers_free_us.values.size(), 2u);
    EXPECT_GT(profile.pipeline_alloc_workers_free_us.values[0], 0.0);
    const std::string text = pipeline_costs_text(profile, "emulated", true);
    EXPECT_NE(text.find("in the same runs, the workers' filling samples, at 2 MiB and 32 MiB; and their collating them "
                        "into a batch, at 2 MiB and 32 MiB"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("on emulated with the real host, 0.6 s a size"), std::string::npos) << text;
    EXPECT_NE(text.find("frees of workers' batches (pin_mode pool, 2 workers), at 2 MiB and 32 MiB"), std::string::npos)
        << text;
    EXPECT_NE(text.find("cudaHostRegister (pin_mode register, no workers), at 2 MiB and 32 MiB"), std::string::npos)
        << text;
    EXPECT_NE(text.find("cudaHostAlloc (pin_mode alloc, no workers), at 2 MiB and 32 MiB"), std::string::npos) << text;
    EXPECT_NE(text.find("the same with 4 workers (on the pin thread"), std::string::npos) << text;
    EXPECT_NE(text.find("in those runs, the workers' filling samples, at 2 MiB and 32 MiB; and their collating them "
                        "into a batch, at 2 MiB and 32 MiB; and the pin thread's frees of their batches, at 2 MiB and "
                        "32 MiB"),
              std::string::npos)
        << text;
    profile.pipeline_host_alloc_us = {};  // a machine whose pinned budget left every size out
    profile.pipeline_host_alloc_workers_us = {};
    EXPECT_EQ(pipeline_costs_text(profile, "emulated", true).find("cudaHostAlloc"), std::string::npos);
}

// A machine too slow (or too busy) to make the call after a short run's first third: the size is
// run again twice and four times as long, and fails, naming itself, only when none of those did.
TEST(PipelineCosts, ASizeWhoseRunMadeNoCallIsRunTwiceAndFourTimesAsLongBeforeItFails) {
    std::vector<double> lengths;
    const auto calls_from = [&](double shortest_with_a_call) -> SizeRunner {
        return [&lengths, shortest_with_a_call](std::size_t, double seconds) {
            lengths.push_back(seconds);
            SizeRun run;
            run.settled = 100'000;
            run.spans.push_back(call(Stage::Pin, LaneKind::Consumer, 0, 90'000));  // in the first third
            if (seconds >= shortest_with_a_call) run.spans.push_back(call(Stage::Pin, LaneKind::Consumer, 200'000, 230'000));
            return std::optional<SizeRun>{run};
        };
    };
    const SizeCurve curve = measure_pipeline_costs_us(calls_from(2.0), PipelineCost::HostRegister, {kMiB}, 0.5);
    EXPECT_EQ(lengths, (std::vector<double>{0.5, 1.0, 2.0}));
    EXPECT_EQ(curve.values, (std::vector<double>{30.0}));

    lengths.clear();
    try {
        measure_pipeline_costs_us(calls_from(4.0), PipelineCost::HostRegister, {kMiB, 4 * kMiB}, 0.5);
        ADD_FAILURE() << "a size with no call in any of its runs was taken";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()), "pipeline cudaHostRegister at 1 MiB: the run made no such call after its first third");
    }
    EXPECT_EQ(lengths, (std::vector<double>{0.5, 1.0, 2.0})) << "given up after the run four times as long";

    lengths.clear();
    const SizeRunner beyond_the_budget = [&](std::size_t, double seconds) {
        lengths.push_back(seconds);
        return std::optional<SizeRun>{};
    };
    EXPECT_TRUE(measure_pipeline_costs_us(beyond_the_budget, PipelineCost::HostRegister, {kMiB}, 0.5).values.empty());
    EXPECT_EQ(lengths, (std::vector<double>{0.5})) << "a size the budget leaves out is not run again";
}

TEST(PipelineCosts, ASizeThatMakesNoWholeSamplesIsRefused) {
    for (const PipelineCost cost : {PipelineCost::FreeWorkersBatch, PipelineCost::HostRegister, PipelineCost::HostAlloc,
                                    PipelineCost::HostAllocWithWorkers}) {
        EXPECT_THROW(measure_pipeline_costs_us("emulated", cost, {kMiB + 1}, 0.6), std::invalid_argument);
        EXPECT_THROW(measure_pipeline_costs_us("emulated", cost, {0}, 0.6), std::invalid_argument);
    }
}

}  // namespace
}  // namespace pinscope
