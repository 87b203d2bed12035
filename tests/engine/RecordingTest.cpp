// SPDX-License-Identifier: GPL-3.0-or-later
// A recording gives back what was recorded: the summary, every span, counter sample, marker and
// NUMA sample, of each of the runs one file holds; a run whose process stopped early reads as
// unfinished up to its last commit; and a reader neither waits on the writer nor makes it wait.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "tests/engine/RecordedRun.h"
#include "tests/engine/RecordingTestData.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

using test::expect_same_record;
using test::expect_same_summary;
using test::record_run;
using test::synthetic_run;

TEST(Recording, RunReadBackIsTheRunRecorded) {
    test::TempDir dir;
    const std::string path = dir.file("run.pinscope");
    const test::SyntheticRun run = synthetic_run(7'000'000'000, 2000);
    {
        RecordingWriter writer(path);
        record_run(writer, run);
        EXPECT_EQ(writer.run_id(), 1);
    }
    const RecordingReader reader(path);
    const RecordedRun read = reader.load(1);
    expect_same_record(read.record, run.expected());
    EXPECT_TRUE(read.info.finished);
    EXPECT_EQ(read.info.config, run.start.summary.config);  // the configuration it began with
    EXPECT_EQ(read.info.device.name, run.summary.device.name);
    EXPECT_EQ(read.info.length_s, run.summary.metrics.wall_s);
    ASSERT_TRUE(read.info.batches_per_s);
    EXPECT_EQ(*read.info.batches_per_s, run.summary.metrics.batches_per_s);
    EXPECT_FALSE(read.info.started_utc.empty());
    expect_same_summary(reader.summary(1), run.summary);
}

TEST(Recording, EngineRunReadBackIsWhatItsRecordersWereGiven) {
    test::TempDir dir;
    const std::string path = dir.file("engine.pinscope");
    auto memory = std::make_shared<test::MemoryRecorder>();
    auto writer = std::make_shared<RecordingWriter>(path);
    RunnerOptions options;
    options.recorder = std::make_shared<RunRecorders>(std::vector<std::shared_ptr<RunRecorder>>{memory, writer});
    Runner runner(options);
    LoaderConfig config = test::small_config(2, true, 200);
    runner.start(config);
    config.pin_memory = false;
    runner.reconfigure(config);  // leaves a marker
    runner.wait();
    runner.stop();
    const RunSummary summary = runner.summary();
    writer->finish(summary);
    const RunRecord recorded = memory->taken(runner);
    ASSERT_FALSE(recorded.markers.empty());
    ASSERT_FALSE(recorded.numa_samples.empty());

    const RecordedRun read = RecordingReader(path).load(writer->run_id());
    expect_same_record(read.record, recorded);
    EXPECT_EQ(read.info.config, test::small_config(2, true, 200));
}

TEST(Recording, OneFileHoldsSeveralRunsAppendedByAnyWriter) {
    test::TempDir dir;
    const std::string path = dir.file("runs.pinscope");
    const test::SyntheticRun first = synthetic_run(1'000'000'000, 700, 1);
    const test::SyntheticRun second = synthetic_run(9'000'000'000, 1200, 3);
    const test::SyntheticRun third = synthetic_run(20'000'000'000, 10, 5);
    {
        RecordingWriter writer(path);  // a sweep: one writer, one run after the other
        record_run(writer, first);
        record_run(writer, second);
    }
    {
        RecordingWriter writer(path);  // a later run appends
        record_run(writer, third);
        EXPECT_EQ(writer.run_id(), 3);
    }
    const RecordingReader reader(path);
    const std::vector<RecordedRunInfo> runs = reader.runs();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].id, 1);
    EXPECT_EQ(runs[2].id, 3);
    EXPECT_EQ(runs[1].config.num_workers, 3u);
    expect_same_record(reader.load(1).record, first.expected());
    expect_same_record(reader.load(2).record, second.expected());
    expect_same_record(reader.load(3).record, third.expected());
}

TEST(Recording, RunWhoseWriterStoppedBeforeFinishReadsAsUnfinished) {
    test::TempDir dir;
    const std::string path = dir.file("cut.pinscope");
    const test::SyntheticRun run = synthetic_run(3'000'000'000, 1500);
    {
        RecordingWriter writer(path);
        writer.begin(run.start);
        for (std::size_t d = 0; d < run.deltas.size(); ++d) {
            writer.record(run.deltas[d]);
            writer.record(run.numa[d]);
        }
    }  // no finish: what a killed process leaves, but committed
    const RecordingReader reader(path);
    const RecordedRun read = reader.load(1);
    EXPECT_FALSE(read.info.finished);
    EXPECT_FALSE(read.info.batches_per_s);
    EXPECT_EQ(read.record.spans, run.expected().spans);
    const RunSummary& summary = read.record.summary;
    ASSERT_FALSE(summary.warnings.empty());
    EXPECT_NE(summary.warnings.back().find("unfinished"), std::string::npos);
    EXPECT_EQ(summary.config, run.start.summary.config);
    EXPECT_GT(summary.metrics.batches, 0u);  // figured from the spans recorded
    // The footprint from the counters: the largest reserved-bytes sample.
    double reserved_peak = 0;
    for (const CounterSample& sample : run.expected().counters)
        if (sample.counter == Counter::PinnedReservedBytes) reserved_peak = std::max(reserved_peak, sample.value);
    EXPECT_EQ(summary.pinned.reserved_bytes.peak, static_cast<std::int64_t>(reserved_peak));
    EXPECT_EQ(summary.pinned.budget_bytes, run.start.summary.pinned.budget_bytes);
}

// The window keeps a recording open between runs, and a comparison reads it beside the writer: a
// finished run must be in the file itself, for a copy of the file alone to hold it.
TEST(Recording, AFinishedRunIsInTheFileItselfWhileTheWriterStaysOpen) {
    test::TempDir dir;
    const std::string path = dir.file("kept.pinscope");
    const test::SyntheticRun run = synthetic_run(2'000'000'000, 2000);
    RecordingWriter writer(path);
    record_run(writer, run);
    const RecordingReader open_beside(path);  // as a comparison of the run would
    const std::string copy = dir.file("copy.pinscope");
    std::filesystem::copy_file(path, copy);  // without its -wal
    const RecordingReader reader(copy);
    ASSERT_EQ(reader.runs().size(), 1u);
    EXPECT_TRUE(reader.run(1).finished);
    EXPECT_EQ(reader.load(1).record.spans, run.expected().spans);
}

TEST(Recording, ReaderAndWriterOfOneFileNeitherWaitsOnTheOther) {
    test::TempDir dir;
    const std::string path = dir.file("live.pinscope");
    const test::SyntheticRun run = synthetic_run(3'000'000'000, 3000);
    RecordingWriter writer(path);
    writer.begin(run.start);
    writer.record(run.deltas[0]);  // in the writer's open transaction, or committed already
    const RecordingReader reader(path);
    ASSERT_EQ(reader.runs().size(), 1u);  // the run's row is committed at begin
    EXPECT_FALSE(reader.run(1).finished);
    const std::size_t seen = reader.load(1).record.spans.size();
    EXPECT_TRUE(seen == 0 || seen == run.deltas[0].spans.size()) << seen;
    // The reader holds a source mid-way while the writer writes and commits the rest.
    const auto source = reader.source(1);
    ASSERT_NE(source->next_frame(), nullptr);
    for (std::size_t d = 1; d < run.deltas.size(); ++d) writer.record(run.deltas[d]);
    writer.finish(run.summary);  // commits; throws if it could not
    EXPECT_TRUE(reader.run(1).finished);
    EXPECT_EQ(reader.load(1).record.spans, run.expected().spans);
}

}  // namespace
}  // namespace pinscope
