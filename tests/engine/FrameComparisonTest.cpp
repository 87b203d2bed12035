// SPDX-License-Identifier: GPL-3.0-or-later
// Two recorded runs compared from their frames, as the window compares them: the same figures and
// stages as pinscope-cli compare gets from the runs loaded whole; lining B up at a batch shifts it
// by where that batch began in each; FILE[:RUN] names a recorded run.
#include <gtest/gtest.h>

#include "engine/compare/FrameComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/RecordingWriter.h"
#include "engine/record/RunReference.h"
#include "tests/engine/RecordingTestData.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

// Every frame of a run source, in order, to the one marked ended.
void take_all(FrameComparison& comparison, RunSide side, RunSource& source) {
    for (int frames = 0; frames < 100000; ++frames) {
        const auto frame = source.next_frame();
        ASSERT_TRUE(frame) << "a recorded run's frames come as fast as they are asked for";
        comparison.take(side, *frame);
        if (frame->ended) return;
    }
    FAIL() << "no frame marked ended";
}

Span batch_span(std::uint64_t batch, TimeNs start) {
    Span span;
    span.batch = batch;
    span.stage = Stage::Load;
    span.start = start;
    span.end = start + 100;
    return span;
}

std::shared_ptr<RunFrame> frame_of(TimeNs origin, std::vector<Span> spans, bool first) {
    auto frame = std::make_shared<RunFrame>();
    frame->first = first;
    frame->origin = origin;
    frame->spans = std::move(spans);
    return frame;
}

TEST(FrameComparison, FromFramesGivesTheFiguresAndStagesTheCliGivesFromTheWholeRuns) {
    test::TempDir dir;
    const std::string path = dir.file("two.pinscope");
    {
        RecordingWriter writer(path);
        test::record_run(writer, test::synthetic_run(1'000'000'000, 6000, 2));
    }
    {
        RecordingWriter writer(path);  // a second run appended, on other figures
        test::SyntheticRun b = test::synthetic_run(5'000'000'000, 9000, 4);
        b.summary.metrics.batches_per_s = 1234.5;
        b.summary.config.pin_memory = true;
        test::record_run(writer, b);
    }
    const RecordingReader reader(path);
    FrameComparison from_frames;
    take_all(from_frames, RunSide::A, *reader.source(1));
    EXPECT_FALSE(from_frames.both_ended());
    take_all(from_frames, RunSide::B, *reader.source(2));
    ASSERT_TRUE(from_frames.both_ended());
    const RunComparison& shown = from_frames.update();
    const RunComparison cli = compare_runs(reader.load(1).record, reader.load(2).record);

    EXPECT_EQ(shown.differences, cli.differences);
    EXPECT_FALSE(shown.differences.empty());
    ASSERT_EQ(shown.figures.size(), cli.figures.size());
    for (std::size_t i = 0; i < cli.figures.size(); ++i) {
        EXPECT_EQ(shown.figures[i].name, cli.figures[i].name);
        EXPECT_EQ(figure_text(shown.figures[i], shown.figures[i].a), figure_text(cli.figures[i], cli.figures[i].a));
        EXPECT_EQ(figure_delta_text(shown.figures[i]), figure_delta_text(cli.figures[i])) << cli.figures[i].name;
        EXPECT_EQ(figure_ratio_text(shown.figures[i]), figure_ratio_text(cli.figures[i])) << cli.figures[i].name;
    }
    // What pinscope-cli compare reads instead of the spans gives the same stages.
    for (const std::int64_t id : {1, 2}) {
        const auto read = reader.stage_durations(id);
        const auto from_spans = stage_durations(reader.load(id).record.spans);
        ASSERT_EQ(read.size(), from_spans.size());
        for (std::size_t i = 0; i < read.size(); ++i) {
            EXPECT_EQ(read[i].stage, from_spans[i].stage);
            EXPECT_EQ(read[i].count, from_spans[i].count);
            EXPECT_EQ(read[i].median_us, from_spans[i].median_us);
            EXPECT_EQ(read[i].p95_us, from_spans[i].p95_us);
        }
    }
    EXPECT_THROW(reader.stage_durations(3), RecordingError);
    ASSERT_EQ(shown.stages.size(), cli.stages.size());
    for (std::size_t i = 0; i < cli.stages.size(); ++i) {
        EXPECT_EQ(shown.stages[i].stage, cli.stages[i].stage);
        EXPECT_EQ(shown.stages[i].a.count, cli.stages[i].a.count);
        EXPECT_EQ(shown.stages[i].b.count, cli.stages[i].b.count);
        EXPECT_DOUBLE_EQ(shown.stages[i].a.median_us, cli.stages[i].a.median_us);
        EXPECT_DOUBLE_EQ(shown.stages[i].b.p95_us, cli.stages[i].b.p95_us);
    }
}

TEST(FrameComparison, StagesComeOnlyOnceBothRunsAreIn) {
    FrameComparison comparison;
    comparison.take(RunSide::A, *frame_of(0, {batch_span(0, 10)}, true));
    comparison.take(RunSide::B, *frame_of(0, {batch_span(0, 10)}, true));
    EXPECT_FALSE(comparison.update().figures.empty());
    EXPECT_TRUE(comparison.comparison().stages.empty());
    auto last = frame_of(0, {batch_span(1, 300)}, false);
    last->ended = true;
    comparison.take(RunSide::A, *last);
    comparison.take(RunSide::B, *last);
    ASSERT_EQ(comparison.update().stages.size(), 1u);
    EXPECT_EQ(comparison.comparison().stages[0].a.count, 2u);
}

TEST(FrameComparison, LiningUpAtABatchShiftsBByWhereThatBatchBeganInEach) {
    FrameComparison comparison;
    // A's batch 3 began 2 ms after its start; B's (on another clock) 5 ms after its own.
    comparison.take(RunSide::A, *frame_of(1'000'000'000, {batch_span(3, 1'002'500'000), batch_span(3, 1'002'000'000)}, true));
    comparison.take(RunSide::B, *frame_of(7'000'000'000, {batch_span(2, 7'001'000'000), batch_span(3, 7'005'000'000)}, true));
    ASSERT_TRUE(comparison.shift_at_batch(3));
    EXPECT_NEAR(*comparison.shift_at_batch(3), 0.003, 1e-12);
    EXPECT_FALSE(comparison.shift_at_batch(2)) << "A has no batch 2";
    EXPECT_EQ(comparison.last_common_batch(), 3u);
    // A run started again forgets its batches.
    comparison.take(RunSide::B, *frame_of(9'000'000'000, {}, true));
    EXPECT_FALSE(comparison.shift_at_batch(3));
}

TEST(FrameComparison, ADifferenceTooSmallForItsDecimalsIsWrittenWithoutASign) {
    EXPECT_EQ(figure_delta_text({"H2D", "GB/s", 1.0, 0.999, 2}), "0.00 GB/s");
    EXPECT_EQ(figure_delta_text({"H2D", "GB/s", 1.0, 0.99, 2}), "-0.01 GB/s");
    EXPECT_EQ(figure_delta_text({"batches/s", "", 10, 10.04}), "0.0");
    EXPECT_EQ(figure_delta_text({"batches/s", "", 10, 12}), "+2.0");
    EXPECT_EQ(figure_ratio_text({"batches/s", "", 0, 12}), "-");
}

TEST(RunReference, IsAFileItsLastRunOrAFileAndARunNumber) {
    test::TempDir dir;
    const std::string path = dir.file("runs.pinscope");
    for (int i = 0; i < 2; ++i) {
        RecordingWriter writer(path);
        test::record_run(writer, test::synthetic_run(1'000'000'000, 100));
    }
    EXPECT_EQ(parse_run_reference(path).run, 0);
    const RunReference second = parse_run_reference(path + ":2");
    EXPECT_EQ(second.path, path);
    EXPECT_EQ(second.run, 2);
    EXPECT_THROW(parse_run_reference(path + ":0"), RecordingError);
    EXPECT_EQ(parse_run_reference(path + ":x").path, path + ":x");  // not a number: all of it is the file

    const RecordingReader reader(path);
    EXPECT_EQ(pick_run(reader, 0), 2);
    EXPECT_EQ(pick_run(reader, 1), 1);
    try {
        pick_run(reader, 9);
        FAIL() << "run 9 is not in the file";
    } catch (const RecordingError& e) {
        EXPECT_NE(std::string(e.what()).find("9"), std::string::npos) << e.what();
    }
    // A file whose own name ends in ":N" is taken whole.
    const std::string colon = dir.file("odd:3");
    { RecordingWriter writer(colon); test::record_run(writer, test::synthetic_run(1'000'000'000, 10)); }
    EXPECT_EQ(parse_run_reference(colon).path, colon);
    EXPECT_EQ(parse_run_reference(colon).run, 0);
}

}  // namespace
}  // namespace pinscope
