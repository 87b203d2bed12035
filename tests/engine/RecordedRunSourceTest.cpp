// SPDX-License-Identifier: GPL-3.0-or-later
// A recorded run as a run source: the window gets it as it gets a live run, every span once in
// frames by end time, the first frame marked first with the run's configuration, device and
// topology, the last marked ended with the final summary, times from the run's origin.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "engine/record/RecordedRunSource.h"
#include "engine/record/RecordingReader.h"
#include "tests/engine/RecordedRun.h"
#include "tests/engine/RecordingTestData.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

using test::record_run;
using test::synthetic_run;

constexpr TimeNs kOrigin = 7'000'000'000;

std::vector<std::shared_ptr<const RunFrame>> all_frames(RunSource& source) {
    std::vector<std::shared_ptr<const RunFrame>> frames;
    while (auto frame = source.next_frame()) {
        frames.push_back(frame);
        if (frames.size() > 100000) break;  // a source that never ends fails below, not here
    }
    return frames;
}

auto span_key(const Span& s) { return std::tie(s.start, s.end, s.batch, s.bytes, s.stage, s.lane.kind, s.lane.index, s.cpu, s.numa_node); }
bool span_less(const Span& a, const Span& b) { return span_key(a) < span_key(b); }

class RecordedRunSourceTest : public ::testing::Test {
protected:
    // More spans than two frames hold, so that the run comes in several.
    void record(std::size_t spans, bool finish = true) {
        run_ = synthetic_run(kOrigin, spans);
        RecordingWriter writer(path_);
        if (finish) {
            record_run(writer, run_);
            return;
        }
        writer.begin(run_.start);
        for (const TraceDelta& delta : run_.deltas) writer.record(delta);
    }

    test::TempDir dir_;
    std::string path_ = dir_.file("source.pinscope");
    test::SyntheticRun run_;
};

TEST_F(RecordedRunSourceTest, FramesHoldEverySpanOnceByEndTime) {
    record(2 * RecordedRunSource::kFrameSpans + 1000);
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_GE(frames.size(), 4u);  // the first, two full chunks, the rest
    std::vector<Span> seen;
    TimeNs last_end = 0;
    for (const auto& frame : frames) {
        for (const Span& span : frame->spans) {
            EXPECT_GE(span.end, last_end);
            last_end = span.end;
            EXPECT_LE(span.end, frame->time);  // nothing from after the frame's now
        }
        seen.insert(seen.end(), frame->spans.begin(), frame->spans.end());
    }
    std::vector<Span> expected = run_.expected().spans;
    std::sort(seen.begin(), seen.end(), span_less);
    std::sort(expected.begin(), expected.end(), span_less);
    EXPECT_EQ(seen, expected);
    // Counters and markers once each too.
    std::size_t counters = 0;
    std::size_t markers = 0;
    for (const auto& frame : frames) {
        counters += frame->counters.size();
        markers += frame->markers.size();
    }
    EXPECT_EQ(counters, run_.expected().counters.size());
    EXPECT_EQ(markers, run_.expected().markers.size());
}

TEST_F(RecordedRunSourceTest, FirstFrameIsMarkedFirstAndHasTheRunsStart) {
    record(100);
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_GE(frames.size(), 2u);
    const RunFrame& first = *frames.front();
    EXPECT_TRUE(first.first);
    EXPECT_FALSE(first.ended);
    EXPECT_TRUE(first.spans.empty());
    EXPECT_EQ(first.origin, kOrigin);
    EXPECT_EQ(first.seconds(), 0.0);
    EXPECT_EQ(first.summary.config, run_.start.summary.config);
    EXPECT_EQ(first.summary.device.name, run_.summary.device.name);
    ASSERT_NE(first.topology, nullptr);  // from the XML the recording keeps
    EXPECT_EQ(first.topology->nodes.size(), run_.start.topology->nodes.size());
    EXPECT_EQ(first.topology->gpus.size(), run_.start.topology->gpus.size());
    EXPECT_EQ(first.topology->source, run_.start.topology->source);
    EXPECT_TRUE(first.topology->from_file);
    for (std::size_t i = 1; i < frames.size(); ++i) EXPECT_FALSE(frames[i]->first);
}

TEST_F(RecordedRunSourceTest, LastFrameIsMarkedEndedWithTheFinalSummary) {
    record(RecordedRunSource::kFrameSpans + 10);
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_FALSE(frames.empty());
    const RunFrame& last = *frames.back();
    EXPECT_TRUE(last.ended);
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) EXPECT_FALSE(frames[i]->ended);
    test::expect_same_summary(last.summary, run_.summary);
    EXPECT_EQ(last.time, run_.summary.metrics.end);
    EXPECT_EQ(source->next_frame(), nullptr);  // nothing after the end
    // Frames go forward in time, from the origin.
    for (std::size_t i = 1; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i]->origin, kOrigin);
        EXPECT_GE(frames[i]->time, frames[i - 1]->time);
    }
}

TEST_F(RecordedRunSourceTest, FramesBetweenCarryTheFiguresAndNumaFootprintSoFar) {
    record(RecordedRunSource::kFrameSpans + 10);
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_GE(frames.size(), 3u);
    const RunFrame& middle = *frames[1];
    EXPECT_GT(middle.summary.metrics.batches, 0u);
    EXPECT_LT(middle.summary.metrics.end, run_.summary.metrics.end);
    EXPECT_EQ(middle.summary.config, run_.start.summary.config);
    // The NUMA footprint is the newest sample at the frame's time, as the exports sample it.
    const NumaSample sample = middle.numa_sample();
    NumaSample newest;
    for (const NumaSample& s : run_.numa)
        if (s.time <= middle.time) newest = s;
    EXPECT_EQ(sample.cross_node_h2d_bytes, newest.cross_node_h2d_bytes);
    ASSERT_EQ(sample.pinned.size(), newest.pinned.size());
    EXPECT_EQ(sample.pinned[0].pinned_bytes, newest.pinned[0].pinned_bytes);
}

TEST_F(RecordedRunSourceTest, UnfinishedRunEndsWhereTheRecordingStops) {
    record(500, false);
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_GE(frames.size(), 2u);
    const RunFrame& last = *frames.back();
    EXPECT_TRUE(last.ended);
    ASSERT_FALSE(last.summary.warnings.empty());
    EXPECT_NE(last.summary.warnings.back().find("unfinished"), std::string::npos);
    EXPECT_GT(last.summary.metrics.batches, 0u);
}

TEST_F(RecordedRunSourceTest, FramesComeAtTheLiveWindowsPaceOfRunTimeAndSayWhereTheRunWasRecorded) {
    {  // half a second of an engine run
        RunnerOptions options;
        auto writer = std::make_shared<RecordingWriter>(path_);
        options.recorder = writer;
        Runner runner(options);
        LoaderConfig config = test::small_config(2, true);
        config.batches.reset();
        config.seconds = 0.5;
        runner.start(config);
        runner.wait();
        runner.stop();
        writer->finish(runner.summary());
    }
    const auto source = RecordingReader(path_).source(1);
    const auto frames = all_frames(*source);
    ASSERT_GE(frames.size(), 3u);
    const TimeNs length = frames.back()->time - frames.back()->origin;
    // One frame per stretch of the live window's poll period: the plots get as many points.
    EXPECT_GE(frames.size(), static_cast<std::size_t>(length / RecordedRunSource::kFrameStretch));
    for (std::size_t i = 1; i < frames.size(); ++i)
        EXPECT_LE(frames[i]->time - frames[i - 1]->time, RecordedRunSource::kFrameStretch);
    for (const auto& frame : frames) {
        ASSERT_NE(frame->recorded, nullptr);
        EXPECT_EQ(frame->recorded->file, path_);
        EXPECT_EQ(frame->recorded->run, 1);
        EXPECT_EQ(frame->recorded->runs, 1);
        EXPECT_TRUE(frame->recorded->finished);
    }
}

}  // namespace
}  // namespace pinscope
