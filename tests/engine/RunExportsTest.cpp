// SPDX-License-Identifier: GPL-3.0-or-later
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/export/RunExports.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using nlohmann::json;
using test::TempDir;
using test::thrown_message;

TEST(RunExports, CsvDirIsCreatedAndHoldsSpansCountersAndSummary) {
    TempDir tmp;
    const auto dir = tmp.path() / "runs" / "first";
    const RunRecord record = test::sample_record();
    export_csv_dir(dir.string(), record);
    EXPECT_EQ(test::file_names(dir), (std::set<std::string>{"counters.csv", "numa.csv", "segments.csv", "spans.csv", "summary.json"}));

    EXPECT_EQ(test::parse_csv(test::read_text(dir / "spans.csv")).size(), record.spans.size() + 1);
    EXPECT_EQ(test::parse_csv(test::read_text(dir / "counters.csv")).front().front(), "time_s");

    const std::string summary = test::read_text(dir / "summary.json");
    EXPECT_NE(summary.find("\n  \"batches\": 2"), std::string::npos) << "pretty, two spaces";
    EXPECT_EQ(json::parse(summary).at("batches"), 2);
}

TEST(RunExports, CsvDirThatCannotBeCreatedIsNamed) {
    TempDir tmp;
    const std::string blocker = tmp.file("a-file");
    std::ofstream(blocker) << "not a directory";
    const std::string dir = blocker + "/run";
    const std::string message = thrown_message([&] { export_csv_dir(dir, test::sample_record()); });
    EXPECT_NE(message.find(dir), std::string::npos) << message;
}

TEST(RunExports, SummaryAndTraceFilesParse) {
    TempDir tmp;
    const RunRecord record = test::sample_record();
    export_summary_json(tmp.file("summary.json"), record.summary);
    export_chrome_trace(tmp.file("trace.json"), record);
    EXPECT_DOUBLE_EQ(json::parse(test::read_text(tmp.path() / "summary.json")).at("gpu_busy").get<double>(), 0.8);
    EXPECT_EQ(json::parse(test::read_text(tmp.path() / "trace.json")).at("displayTimeUnit"), "ms");
    EXPECT_EQ(test::file_names(tmp.path()), (std::set<std::string>{"summary.json", "trace.json"}));
}

TEST(RunExports, MissingDirectoryForASingleFileThrowsAndCreatesNothing) {
    TempDir tmp;
    const std::string path = tmp.file("missing/trace.json");
    const std::string message = thrown_message([&] { export_chrome_trace(path, test::sample_record()); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_TRUE(test::file_names(tmp.path()).empty());
}

TEST(RunExports, CsvSetThatFailsLeavesEveryOldFileAndOthersInTheFolder) {
    TempDir tmp;
    const auto dir = tmp.path() / "run";
    export_csv_dir(dir.string(), test::sample_record());
    std::ofstream(dir / "notes.txt") << "mine";
    const std::string old_spans = test::read_text(dir / "spans.csv");
    const std::string old_summary = test::read_text(dir / "summary.json");
    RunRecord newer = test::sample_record();
    newer.spans.resize(3);
    newer.summary.metrics.batches = 99;
    {
        RunFileExports exports({dir.string(), "", ""});
        exports.begin({newer.origin});
        exports.record(newer.spans, newer.counters, newer.markers);
        // numa.csv becomes something that cannot be replaced before the set is committed.
        std::filesystem::remove(dir / "numa.csv");
        std::filesystem::create_directory(dir / "numa.csv");
        EXPECT_THROW(exports.finish(newer.summary), std::runtime_error);
    }
    EXPECT_EQ(test::read_text(dir / "spans.csv"), old_spans);
    EXPECT_EQ(test::read_text(dir / "summary.json"), old_summary);
    EXPECT_EQ(test::file_names(dir),
              (std::set<std::string>{"counters.csv", "notes.txt", "numa.csv", "segments.csv", "spans.csv", "summary.json"}));
}

TEST(RunExports, CsvSetIntoAReadOnlyFolderFailsAtOnceAndChangesNothing) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
    TempDir tmp;
    const auto dir = tmp.path() / "run";
    export_csv_dir(dir.string(), test::sample_record());
    const std::string old_spans = test::read_text(dir / "spans.csv");
    std::filesystem::permissions(dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const std::string message = thrown_message([&] { RunFileExports exports({dir.string(), "", ""}); });
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    EXPECT_NE(message.find("cannot write " + (dir / "spans.csv").string()), std::string::npos) << message;
    EXPECT_EQ(test::read_text(dir / "spans.csv"), old_spans);
}

}  // namespace
}  // namespace pinscope
