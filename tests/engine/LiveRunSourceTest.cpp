// SPDX-License-Identifier: GPL-3.0-or-later
// The live engine as a run source: a reader that polls at any pace gets every span once, in order,
// in immutable frames whose last is marked ended and carries the run's final summary.
#include <gtest/gtest.h>

#include <thread>

#include "engine/runner/LiveRunSource.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

using test::small_config;

Span span_at(TimeNs start) {
    Span span;
    span.start = start;
    span.end = start + 10;
    span.stage = Stage::Compute;
    return span;
}

TraceDelta delta_of(std::initializer_list<TimeNs> starts) {
    TraceDelta delta;
    for (const TimeNs start : starts) delta.spans.push_back(span_at(start));
    return delta;
}

TEST(LiveRunSource, HasNoFrameUntilTheObserverAddsOne) {
    LiveRunSource source(100);
    EXPECT_EQ(source.next_frame(), nullptr);
}

TEST(LiveRunSource, WhatIsAddedBetweenTwoReadsIsOneFrame) {
    LiveRunSource source(100);
    RunSummary summary;
    summary.metrics.batches = 1;
    source.add(delta_of({110}), 120, Metrics{}, summary, nullptr, false);
    summary.metrics.batches = 2;
    source.add(delta_of({130, 140}), 150, Metrics{}, summary, nullptr, false);
    const auto frame = source.next_frame();
    ASSERT_NE(frame, nullptr);
    EXPECT_TRUE(frame->first);
    EXPECT_FALSE(frame->ended);
    EXPECT_EQ(frame->origin, 100);
    EXPECT_EQ(frame->time, 150);  // where the run stands at the newest add
    EXPECT_EQ(frame->summary.metrics.batches, 2u);
    ASSERT_EQ(frame->spans.size(), 3u);
    EXPECT_EQ(frame->spans[0].start, 110);
    EXPECT_EQ(frame->spans[2].start, 140);
    EXPECT_EQ(source.next_frame(), nullptr);  // nothing new since

    source.add(delta_of({160}), 170, Metrics{}, summary, nullptr, false);
    const auto second = source.next_frame();
    ASSERT_NE(second, nullptr);
    EXPECT_FALSE(second->first);
    ASSERT_EQ(second->spans.size(), 1u);
    EXPECT_EQ(second->spans[0].start, 160);
}

TEST(LiveRunSource, NothingFollowsTheEndedFrame) {
    LiveRunSource source(0);
    source.add(delta_of({1}), 5, Metrics{}, RunSummary{}, nullptr, true);
    const auto last = source.next_frame();
    ASSERT_NE(last, nullptr);
    EXPECT_TRUE(last->ended);
    source.add(delta_of({6}), 7, Metrics{}, RunSummary{}, nullptr, true);
    EXPECT_EQ(source.next_frame(), nullptr);
}

TEST(LiveRunSource, AReaderThatFallsBehindLosesTheOldestSpansAndIsToldHowMany) {
    LiveRunSource source(0, 3);
    source.add(delta_of({1, 2}), 3, Metrics{}, RunSummary{}, nullptr, false);
    source.add(delta_of({4, 5, 6}), 7, Metrics{}, RunSummary{}, nullptr, false);
    const auto frame = source.next_frame();
    ASSERT_NE(frame, nullptr);
    ASSERT_EQ(frame->spans.size(), 3u);
    EXPECT_EQ(frame->spans.front().start, 4);
    EXPECT_EQ(frame->summary.dropped_spans, 2u);
}

TEST(LiveRunSource, ARunsFramesHoldEverySpanOnceAndEndWithItsFinalSummary) {
    RunnerOptions options;
    options.frames = true;
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder, options));
    runner.start(small_config(2, true, 80));
    const std::shared_ptr<RunSource> source = runner.source();
    ASSERT_NE(source, nullptr);
    std::vector<std::shared_ptr<const RunFrame>> frames;
    // Read while it runs, as the window does, then after its end.
    while (runner.running()) {
        if (auto frame = source->next_frame()) frames.push_back(std::move(frame));
        std::this_thread::yield();
    }
    runner.wait();
    while (auto frame = source->next_frame()) frames.push_back(std::move(frame));

    ASSERT_FALSE(frames.empty());
    EXPECT_TRUE(frames.front()->first);
    EXPECT_TRUE(frames.back()->ended);
    EXPECT_EQ(frames.front()->summary.config, small_config(2, true, 80));  // known before anything ran
    std::size_t spans = 0;
    TimeNs time = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i]->first, i == 0);
        EXPECT_EQ(frames[i]->ended, i + 1 == frames.size());
        EXPECT_GE(frames[i]->time, time);
        time = frames[i]->time;
        spans += frames[i]->spans.size();
    }
    const RunRecord record = recorder->taken(runner);
    EXPECT_EQ(spans, record.spans.size());
    const RunSummary& last = frames.back()->summary;
    EXPECT_EQ(last.metrics.batches, 80u);
    EXPECT_EQ(last.metrics.batches, runner.summary().metrics.batches);
    EXPECT_EQ(last.pinned.allocated_bytes.current, 0u);  // every block back once it ended
    EXPECT_NEAR(frames.back()->seconds(), last.metrics.wall_s, 1e-6);
}

TEST(LiveRunSource, WithoutFramesAskedForTheRunKeepsNone) {
    Runner runner;
    runner.start(small_config(0, false, 5));
    runner.wait();
    EXPECT_EQ(runner.source(), nullptr);
}

}  // namespace
}  // namespace pinscope
