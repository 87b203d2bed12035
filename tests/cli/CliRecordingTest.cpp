// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli run --record, sweep --record, runs, show and export: a recorded run gives back the
// summary run printed and the files run wrote; a run killed with SIGKILL leaves a recording that
// opens, unfinished; a file that is not a recording is refused (exit 2) and left as it was.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/SqliteDatabase.h"
#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"
#include "tests/engine/RecordingTestData.h"
#include "tests/support/Eventually.h"

namespace pinscope::test {
namespace {

std::vector<std::string> recorded_run(std::vector<std::string> extra) {
    std::vector<std::string> args{"run", "--batches", "150", "--batch-size", "4", "--workers", "2",
                                  "--sample-shape", "3x16x16", "--host", "modeled", "--device", "emulated"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// The lines of `text` that are not about files written.
std::string summary_part(const std::string& text) {
    return text.substr(0, std::min(text.find("wrote "), text.find("recorded run")));
}

TEST(CliRecording, ExportWritesExactlyWhatTheRunWrote) {
    TempDir dir;
    const std::string recording = dir.file("runs.pinscope");
    const CliResult run = run_cli(recorded_run({"--record", recording, "--csv", dir.file("run-csv"), "--trace",
                                             dir.file("run-trace.json"), "--summary", dir.file("run-summary.json")}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "recorded run 1 in " + recording)) << run.out;
    const CliResult exported = run_cli({"export", recording, "--csv", dir.file("export-csv"), "--trace",
                                        dir.file("export-trace.json"), "--summary", dir.file("export-summary.json")});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    for (const char* name : {"spans.csv", "counters.csv", "numa.csv", "segments.csv", "summary.json"})
        EXPECT_EQ(read_file(dir.file("export-csv/") + name), read_file(dir.file("run-csv/") + name)) << name;
    EXPECT_EQ(read_file(dir.file("export-trace.json")), read_file(dir.file("run-trace.json")));
    EXPECT_EQ(read_file(dir.file("export-summary.json")), read_file(dir.file("run-summary.json")));
    EXPECT_GT(read_file(dir.file("export-csv/spans.csv")).size(), 1000u);
}

TEST(CliRecording, ShowPrintsTheSummaryTheRunPrinted) {
    TempDir dir;
    const std::string recording = dir.file("runs.pinscope");
    const CliResult run = run_cli(recorded_run({"--record", recording}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const CliResult show = run_cli({"show", recording});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_EQ(show.out, summary_part(run.out));
    EXPECT_TRUE(contains(show.out, "batches/s")) << show.out;
    EXPECT_TRUE(show.err.empty()) << show.err;  // one run: nothing to say about which
}

TEST(CliRecording, RunsListsEveryRunOfRunAndSweepAppended) {
    TempDir dir;
    const std::string recording = dir.file("runs.pinscope");
    ASSERT_EQ(run_cli(recorded_run({"--record", recording})).exit_code, 0);
    const CliResult sweep = run_cli({"sweep", "--batches", "60", "--batch-size", "4", "--sample-shape", "3x16x16",
                                     "--device", "emulated", "--workers", "0,2", "--record", recording});
    ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
    EXPECT_TRUE(contains(sweep.out, "recorded runs 2 to 3 in " + recording)) << sweep.out;
    const CliResult runs = run_cli({"runs", recording});
    ASSERT_EQ(runs.exit_code, 0) << runs.err;
    EXPECT_TRUE(contains(runs.out, "started (UTC)")) << runs.out;
    EXPECT_TRUE(contains(runs.out, "workers=0 prefetch=-")) << runs.out;
    EXPECT_TRUE(contains(runs.out, "workers=2 prefetch=2")) << runs.out;
    EXPECT_EQ(std::count(runs.out.begin(), runs.out.end(), '\n'), 4) << runs.out;  // the heading and 3 runs
    EXPECT_FALSE(contains(runs.out, "unfinished")) << runs.out;

    // Without --run, show and export take the last and say so.
    const CliResult show = run_cli({"show", recording});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_TRUE(contains(show.err, "holds 3 runs; this is the last, run 3")) << show.err;
    EXPECT_TRUE(contains(show.out, "workers 2")) << show.out;
    const CliResult first = run_cli({"show", recording, "--run", "2"});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    EXPECT_TRUE(contains(first.out, "workers 0")) << first.out;
}

TEST(CliRecording, RunKilledWithSigkillLeavesARecordingThatOpensUnfinished) {
    TempDir dir;
    const std::string recording = dir.file("killed.pinscope");
    const pid_t pid = start_cli({"run", "--seconds", "120", "--device", "emulated", "--record", recording});
    // Until some spans are committed: the run's row comes at once, spans every commit period.
    const bool committed = eventually([&] {
        try {
            return !RecordingReader(recording).load(1).record.spans.empty();
        } catch (const RecordingError&) {
            return false;  // not created yet
        }
    });
    // Read by other processes while it is written: neither waits on the other.
    const CliResult during = run_cli({"show", recording});
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ASSERT_TRUE(committed);
    EXPECT_EQ(during.exit_code, 0) << during.err;
    EXPECT_TRUE(contains(during.out, "unfinished")) << during.out;

    const CliResult runs = run_cli({"runs", recording});
    ASSERT_EQ(runs.exit_code, 0) << runs.err;
    EXPECT_TRUE(contains(runs.out, "unfinished")) << runs.out;
    const CliResult show = run_cli({"show", recording});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_TRUE(contains(show.out, "warning: unfinished: the recording stops at")) << show.out;
    const CliResult exported = run_cli({"export", recording, "--csv", dir.file("csv")});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    EXPECT_GT(read_file(dir.file("csv/spans.csv")).size(), 100u);
    // And the next run appends to it.
    ASSERT_EQ(run_cli(recorded_run({"--record", recording})).exit_code, 0);
    EXPECT_EQ(RecordingReader(recording).runs().size(), 2u);
}

class CliBadRecording : public ::testing::Test {
protected:
    std::string file_with(const std::string& name, const std::string& bytes) {
        const std::string path = dir_.file(name);
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
    std::string recording(const std::string& name) {
        const std::string path = dir_.file(name);
        EXPECT_EQ(run_cli(recorded_run({"--record", path})).exit_code, 0);
        return path;
    }
    // runs, show and export all refuse `path` with exit 2 and one line naming it, containing
    // `why`, and leave it as it was.
    void expect_refused(const std::string& path, const std::string& why) {
        const bool regular = std::filesystem::is_regular_file(path);
        const FileState before = regular ? file_state(path) : FileState{};
        for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
                 {"runs", path}, {"show", path}, {"export", path, "--summary", dir_.file("out.json")}}) {
            const CliResult result = run_cli(args);
            EXPECT_EQ(result.exit_code, 2) << args[0] << " " << path << ": " << result.err;
            EXPECT_TRUE(result.out.empty()) << result.out;
            EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
            EXPECT_TRUE(contains(result.err, std::filesystem::path(path).filename().string())) << result.err;
            EXPECT_TRUE(contains(result.err, why)) << result.err;
        }
        EXPECT_FALSE(std::filesystem::exists(dir_.file("out.json")));
        if (regular) {
            EXPECT_TRUE(file_state(path) == before) << path << " changed";
        }
    }

    TempDir dir_;
};

TEST_F(CliBadRecording, NotSqliteEmptyAndTruncatedFilesAreRefused) {
    expect_refused(file_with("notes.txt", "not a database\n"), "not an SQLite database");
    expect_refused(file_with("empty.pinscope", ""), "empty");
    const std::string whole = read_file(recording("whole.pinscope"));
    expect_refused(file_with("half.pinscope", whole.substr(0, whole.size() / 2)), "truncated");
}

TEST_F(CliBadRecording, OtherDatabaseAndOtherFormatVersionsAreRefused) {
    const std::string other = dir_.file("other.db");
    {
        SqliteDatabase db(other, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("CREATE TABLE t (x)");
    }
    expect_refused(other, "not a pinscope recording");
    const std::string newer = recording("newer.pinscope");
    const std::string older = recording("older.pinscope");
    SqliteDatabase(newer, SqliteDatabase::Mode::ReadWriteCreate).execute("PRAGMA user_version = 99");
    SqliteDatabase(older, SqliteDatabase::Mode::ReadWriteCreate).execute("PRAGMA user_version = 0");
    expect_refused(newer, "newer format (version 99");
    expect_refused(older, "older format (version 0");
}

TEST_F(CliBadRecording, DirectoryFifoAndMissingFileAreRefused) {
    std::filesystem::create_directory(dir_.file("folder"));
    expect_refused(dir_.file("folder"), "folder");
    ASSERT_EQ(::mkfifo(dir_.file("fifo").c_str(), 0600), 0);
    expect_refused(dir_.file("fifo"), "FIFO");
    expect_refused(dir_.file("missing.pinscope"), "No such file");
}

TEST_F(CliBadRecording, MissingRunNumberIsRefusedSayingWhichThereAre) {
    const std::string path = recording("one.pinscope");
    const FileState before = file_state(path);
    const CliResult show = run_cli({"show", path, "--run", "9"});
    EXPECT_EQ(show.exit_code, 2);
    EXPECT_TRUE(contains(show.err, "no run 9; it holds run 1")) << show.err;
    const CliResult exported = run_cli({"export", path, "--run", "9", "--csv", dir_.file("csv")});
    EXPECT_EQ(exported.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(dir_.file("csv")));
    EXPECT_TRUE(file_state(path) == before);
}

TEST_F(CliBadRecording, RecordIntoWhatIsNotARecordingIsRefusedBeforeTheRun) {
    for (const std::string& path : {file_with("notes.txt", "keep me\n"), file_with("empty.pinscope", "")}) {
        const FileState before = file_state(path);
        const CliResult result = run_cli(recorded_run({"--record", path}));
        EXPECT_EQ(result.exit_code, 2) << result.err;
        EXPECT_TRUE(contains(result.err, "--record: ")) << result.err;
        EXPECT_TRUE(result.out.empty()) << result.out;  // nothing ran
        EXPECT_TRUE(file_state(path) == before) << path << " changed";
    }
}

TEST_F(CliBadRecording, ExportWithNothingToWriteIsRefused) {
    const CliResult result = run_cli({"export", recording("one.pinscope")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "nothing to write")) << result.err;
}

TEST(CliRecording, CompareSetsTwoRecordedRunsSideBySide) {
    TempDir dir;
    const std::string recording = dir.file("two.pinscope");
    ASSERT_EQ(run_cli(recorded_run({"--record", recording})).exit_code, 0);
    ASSERT_EQ(run_cli(recorded_run({"--pin-memory", "off", "--record", recording})).exit_code, 0);
    const CliResult compare = run_cli({"compare", recording + ":1", recording + ":2"});
    ASSERT_EQ(compare.exit_code, 0) << compare.err;
    EXPECT_TRUE(contains(compare.out, "A  run 1 of " + recording)) << compare.out;
    EXPECT_TRUE(contains(compare.out, "B  run 2 of " + recording)) << compare.out;
    EXPECT_TRUE(contains(compare.out, "  pin_memory: on -> off")) << compare.out;
    EXPECT_FALSE(contains(compare.out, "  batch_size:")) << compare.out;  // only what differs
    EXPECT_TRUE(contains(compare.out, "batches/s")) << compare.out;
    EXPECT_TRUE(contains(compare.out, "B / A median")) << compare.out;
    EXPECT_TRUE(contains(compare.out, "\npin ")) << compare.out;      // A pins,
    EXPECT_TRUE(contains(compare.out, "\nstaging ")) << compare.out;  // B stages pageable copies

    // A run the file does not hold, and a file that is not a recording: bad input, exit 2.
    const CliResult missing = run_cli({"compare", recording + ":1", recording + ":9"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_TRUE(contains(missing.err, "no run 9")) << missing.err;
    const std::string text = dir.file("notes.txt");
    std::ofstream(text) << "not a recording\n";
    EXPECT_EQ(run_cli({"compare", recording, text}).exit_code, 2);
}

}  // namespace
}  // namespace pinscope::test
