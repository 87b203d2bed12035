// SPDX-License-Identifier: GPL-3.0-or-later
// Segments: a run reconfigured twice has three, each with its configuration and its own figures,
// which add up to the whole run's; they survive summary.json, a recording (format version 2) and
// a run copied into another recording; a version 1 recording still reads, as one segment; a
// version this pinscope does not know is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/analysis/SegmentTracker.h"
#include "engine/compare/RunComparison.h"
#include "engine/export/SummaryJson.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/RecordingWriter.h"
#include "engine/record/RunCopy.h"
#include "engine/record/SqliteDatabase.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/Eventually.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

Span compute_ending(TimeNs start, TimeNs end) {
    Span span;
    span.stage = Stage::Compute;
    span.lane = {LaneKind::ComputeStream, 0};
    span.start = start;
    span.end = end;
    return span;
}

struct ThreeSegments {
    RunSummary summary;
    LoaderConfig first, second, third;
};

// An emulated run reconfigured twice (pin_memory off, then 2 workers), each configuration
// running until it has computed batches of its own; recorded into `recording` when given.
ThreeSegments run_three_segments(std::shared_ptr<RunRecorder> recording = nullptr) {
    ThreeSegments out;
    out.first = test::small_config(4, true);
    out.first.batches.reset();
    out.first.seconds = 60;
    RunnerOptions options;
    options.recorder = recording;
    Runner runner(options);
    const auto computes_more = [&runner](std::uint64_t more) {
        const std::uint64_t from = runner.summary().metrics.batches;
        return test::eventually([&] { return runner.summary().metrics.batches >= from + more; });
    };
    runner.start(out.first);
    EXPECT_TRUE(computes_more(10));
    // Pinned memory in use is a sampled counter: on a loaded machine ten batches can pass before
    // a sample lands, so the first segment lasts until one has seen blocks in use.
    EXPECT_TRUE(test::eventually([&runner] { return runner.summary().segments.back().pinned_in_use_peak_bytes > 0; }));
    out.second = out.first;
    out.second.pin_memory = false;
    runner.reconfigure(out.second);
    EXPECT_TRUE(test::eventually([&] { return runner.summary().segments.size() == 2; }));
    EXPECT_TRUE(computes_more(10));
    out.third = out.second;
    out.third.num_workers = 2;
    runner.reconfigure(out.third);
    EXPECT_TRUE(test::eventually([&] { return runner.summary().segments.size() == 3; }));
    EXPECT_TRUE(computes_more(10));
    runner.stop();
    out.summary = runner.summary();
    if (recording) recording->finish(out.summary);
    return out;
}

void expect_three_segments(const ThreeSegments& run, const RunSummary& summary) {
    ASSERT_EQ(summary.segments.size(), 3u);
    const auto& s = summary.segments;
    EXPECT_EQ(s[0].config.pin_memory, true);
    EXPECT_EQ(s[1].config.pin_memory, false);
    EXPECT_EQ(s[1].config.num_workers, 4u);
    EXPECT_EQ(s[2].config.num_workers, 2u);
    EXPECT_EQ(s[0].change, "");
    EXPECT_EQ(s[1].change, "pin_memory: on -> off");
    EXPECT_EQ(s[2].change, "num_workers: 4 -> 2");
    std::uint64_t batches = 0;
    double wall = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(s[i].index, i + 1);
        EXPECT_GT(s[i].metrics.batches, 0u) << "segment " << i + 1;
        if (i > 0) {
            EXPECT_EQ(s[i].begin, s[i - 1].end);
        }
        batches += s[i].metrics.batches;
        wall += s[i].metrics.wall_s;
    }
    EXPECT_EQ(batches, summary.metrics.batches);
    EXPECT_NEAR(wall, summary.metrics.wall_s, 1e-6);
    EXPECT_EQ(summary.config.num_workers, run.third.num_workers);  // the whole run's: in force at the end
    // Pinned memory in use only while pin_memory was on.
    EXPECT_GT(s[0].pinned_in_use_peak_bytes, 0u);
    EXPECT_GT(s[0].host_allocations, 0u);
    EXPECT_EQ(s[1].host_allocations, 0u);
}

TEST(Segments, ATrackerPutsEachSpanInTheSegmentItEndedIn) {
    LoaderConfig config;
    SegmentTracker tracker(0, config);
    tracker.add({compute_ending(0, 100), compute_ending(100, 200)}, {});
    LoaderConfig pinned = config;
    pinned.pin_memory = !config.pin_memory;
    tracker.begin_segment(250, pinned, {3, 0, 0}, {3, 0, 0});
    // A span that started before the change but ended after it belongs to the new segment.
    tracker.add({compute_ending(240, 260), compute_ending(300, 400), compute_ending(150, 240)}, {});
    const auto segments = tracker.segments(1000, {5, 0, 0});
    ASSERT_EQ(segments.size(), 2u);
    EXPECT_EQ(segments[0].metrics.batches, 3u);
    EXPECT_EQ(segments[1].metrics.batches, 2u);
    EXPECT_EQ(segments[0].end, 250);
    EXPECT_EQ(segments[1].begin, 250);
    EXPECT_EQ(segments[1].end, 1000);
    EXPECT_EQ(segments[0].host_allocations, 3u);
    EXPECT_EQ(segments[1].host_allocations, 2u);
    EXPECT_FALSE(segments[1].change.empty());
}

TEST(Segments, ARunReconfiguredTwiceHasThreeSegmentsThatAddUpToTheWholeRun) {
    const ThreeSegments run = run_three_segments();
    expect_three_segments(run, run.summary);
}

TEST(Segments, SummaryJsonGivesEachSegmentItsConfigurationAndFigures) {
    const ThreeSegments run = run_three_segments();
    const nlohmann::json summary_json = summary_to_json(run.summary);
    ASSERT_EQ(summary_json.at("segments").size(), 3u);
    std::uint64_t batches = 0;
    for (const auto& segment : summary_json.at("segments")) {
        batches += segment.at("batches").get<std::uint64_t>();
        EXPECT_TRUE(segment.contains("batches_per_s"));
        EXPECT_TRUE(segment.contains("gpu_busy"));
        EXPECT_TRUE(segment.contains("pinned_peak_bytes"));
        EXPECT_TRUE(segment.at("bottleneck").contains("evidence"));
    }
    EXPECT_EQ(batches, summary_json.at("batches").get<std::uint64_t>());
    EXPECT_EQ(summary_json.at("segments")[0].at("config").at("pin_memory"), true);
    EXPECT_EQ(summary_json.at("segments")[1].at("config").at("pin_memory"), false);
    EXPECT_EQ(summary_json.at("segments")[2].at("config").at("num_workers"), 2);
    EXPECT_EQ(summary_json.at("segments")[1].at("change"), "pin_memory: on -> off");
    EXPECT_DOUBLE_EQ(summary_json.at("segments")[0].at("start_s").get<double>(), 0.0);
}

class SegmentsRecorded : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new test::TempDir;
        path_ = dir_->file("three.pinscope");
        run_ = new ThreeSegments(run_three_segments(std::make_shared<RecordingWriter>(path_)));
    }
    static void TearDownTestSuite() {
        delete run_;
        delete dir_;
    }
    static test::TempDir* dir_;
    static std::string path_;
    static ThreeSegments* run_;
};

test::TempDir* SegmentsRecorded::dir_ = nullptr;
std::string SegmentsRecorded::path_;
ThreeSegments* SegmentsRecorded::run_ = nullptr;

TEST_F(SegmentsRecorded, ARecordingKeepsEachSegmentExactly) {
    const RecordingReader reader(path_);
    const RunSummary read = reader.summary(1);
    expect_three_segments(*run_, read);
    for (std::size_t i = 0; i < 3; ++i) {
        const RunSegment& a = run_->summary.segments[i];
        const RunSegment& b = read.segments[i];
        EXPECT_EQ(b.config, a.config);
        EXPECT_EQ(b.begin, a.begin);
        EXPECT_EQ(b.end, a.end);
        EXPECT_EQ(b.metrics.batches, a.metrics.batches);
        EXPECT_DOUBLE_EQ(b.metrics.batches_per_s, a.metrics.batches_per_s);
        EXPECT_DOUBLE_EQ(b.metrics.gpu_busy, a.metrics.gpu_busy);
        EXPECT_EQ(b.pinned_peak_bytes, a.pinned_peak_bytes);
        EXPECT_EQ(b.bottleneck.evidence, a.bottleneck.evidence);
    }
    SqliteDatabase db(path_, SqliteDatabase::Mode::ReadOnly);
    EXPECT_EQ(db.query_integer("PRAGMA user_version"), 2);
    EXPECT_EQ(db.query_integer("SELECT count(*) FROM segments WHERE run_id = 1"), 3);
    EXPECT_EQ(db.query_integer("SELECT sum(batches) FROM segments WHERE run_id = 1"),
              db.query_integer("SELECT batches FROM runs WHERE id = 1"));
}

TEST_F(SegmentsRecorded, OneSegmentComparesWithAnotherAsARunOfItsOwn) {
    const RecordedRun run = RecordingReader(path_).load(1);
    const RunRecord on = segment_record(run.record, 1);
    const RunRecord off = segment_record(run.record, 2);
    EXPECT_EQ(on.summary.metrics.batches, run.record.summary.segments[0].metrics.batches);
    const RunComparison c = compare_runs(on, off);
    EXPECT_EQ(c.differences, std::vector<std::string>{"pin_memory: on -> off"});
    std::size_t computes = 0;
    for (const Span& span : off.spans) computes += span.stage == Stage::Compute;
    EXPECT_EQ(computes, run.record.summary.segments[1].metrics.batches);
    // Both runs reconfigured: compared segment by segment as well.
    EXPECT_EQ(compare_runs(run.record, run.record).segments.size(), 3u);
}

TEST_F(SegmentsRecorded, ARunCopiedIntoAnotherRecordingReadsTheSame) {
    const std::string copy = dir_->file("copy.pinscope");
    EXPECT_EQ(copy_recorded_run(path_, 1, copy), 1);
    EXPECT_EQ(copy_recorded_run(path_, 1, copy), 2);  // appended
    const RecordedRun a = RecordingReader(path_).load(1);
    const RecordedRun b = RecordingReader(copy).load(2);
    EXPECT_EQ(b.record.spans.size(), a.record.spans.size());
    EXPECT_EQ(b.record.counters.size(), a.record.counters.size());
    EXPECT_EQ(b.record.numa_samples.size(), a.record.numa_samples.size());
    EXPECT_EQ(b.record.summary.metrics.batches, a.record.summary.metrics.batches);
    ASSERT_EQ(b.record.summary.segments.size(), 3u);
    EXPECT_EQ(b.record.summary.segments[2].config, a.record.summary.segments[2].config);
}

TEST_F(SegmentsRecorded, SavingARunOverAFileThatIsNotARecordingIsRefusedAndLeavesIt) {
    const std::string notes = dir_->file("notes.txt");
    std::ofstream(notes) << "my notes\n";
    EXPECT_THROW(copy_recorded_run(path_, 1, notes), RecordingError);
    std::ifstream in(notes);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "my notes");
    EXPECT_THROW(copy_recorded_run(path_, 1, path_), RecordingError);  // into itself
    EXPECT_THROW(copy_recorded_run(path_, 7, dir_->file("none.pinscope")), RecordingError);
    EXPECT_FALSE(std::filesystem::exists(dir_->file("none.pinscope")));
}

// A version 1 file: what version 1 wrote is version 2 less the segments table.
std::string as_version_1(const std::string& from, const std::string& to) {
    std::filesystem::copy_file(from, to);
    SqliteDatabase db(to, SqliteDatabase::Mode::ReadWriteCreate);
    db.execute("DROP TABLE segments; UPDATE meta SET value = '1' WHERE key = 'format_version'; PRAGMA user_version = 1");
    return to;
}

TEST_F(SegmentsRecorded, AVersion1RecordingReadsAsOneSegmentAndIsNotAppendedTo) {
    const std::string old = as_version_1(path_, dir_->file("v1.pinscope"));
    const RecordingReader reader(old);
    const RunSummary read = reader.summary(1);
    ASSERT_EQ(read.segments.size(), 1u);
    EXPECT_EQ(read.segments[0].config, run_->summary.config);  // the configuration it ended with
    EXPECT_EQ(read.segments[0].metrics.batches, read.metrics.batches);
    EXPECT_DOUBLE_EQ(read.segments[0].metrics.batches_per_s, read.metrics.batches_per_s);
    EXPECT_EQ(reader.load(1).record.spans.size(), RecordingReader(path_).load(1).record.spans.size());
    try {
        RecordingWriter writer(old);
        FAIL() << "appended to a version 1 file";
    } catch (const RecordingError& error) {
        EXPECT_NE(std::string(error.what()).find("appends runs only to version 2"), std::string::npos) << error.what();
    }
    // Saved into a version 2 file, it still reads as one segment.
    const std::string saved = dir_->file("v1-saved.pinscope");
    copy_recorded_run(old, 1, saved);
    EXPECT_EQ(RecordingReader(saved).summary(1).segments.size(), 1u);
}

TEST_F(SegmentsRecorded, ANewerVersionIsRefusedSayingSo) {
    const std::string newer = dir_->file("v3.pinscope");
    std::filesystem::copy_file(path_, newer);
    {
        SqliteDatabase db(newer, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("UPDATE meta SET value = '3' WHERE key = 'format_version'; PRAGMA user_version = 3");
    }
    try {
        RecordingReader reader(newer);
        FAIL() << "read a version 3 file";
    } catch (const RecordingError& error) {
        EXPECT_NE(std::string(error.what()).find("newer format (version 3; this pinscope reads versions 1 to 2)"),
                  std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace pinscope
