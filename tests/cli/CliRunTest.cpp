// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli run: a short modelled run, its summary and its export files (signals: CliStopTest).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

std::vector<std::string> short_run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"run", "--batches",      "40",      "--batch-size", "8",      "--workers",
                                  "2",   "--sample-shape", "3x32x32", "--host",       "modeled"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(CliRun, ShortRunPrintsTheSummary) {
    const CliResult result = run_cli(short_run());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("batches/s"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("wrote"), std::string::npos) << result.out;
}

TEST(CliRun, WritesEveryExportAskedFor) {
    TempDir dir;
    const std::string csv = dir.file("csv");
    const std::string trace = dir.file("trace.json");
    const std::string summary = dir.file("summary.json");
    const CliResult result = run_cli(short_run({"--csv", csv, "--trace", trace, "--summary", summary}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("wrote spans.csv, counters.csv, numa.csv, summary.json to " + csv), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("wrote " + trace), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("wrote " + summary), std::string::npos) << result.out;

    const auto json = nlohmann::json::parse(read_file(summary));
    EXPECT_GT(json.at("batches_per_s").get<double>(), 0.0);
    EXPECT_GT(json.at("samples_per_s").get<double>(), 0.0);
    EXPECT_EQ(json.at("batches").get<std::uint64_t>(), 40u);
    EXPECT_EQ(nlohmann::json::parse(read_file(csv + "/summary.json")).at("batches").get<std::uint64_t>(), 40u);

    const auto trace_json = nlohmann::json::parse(read_file(trace));
    EXPECT_FALSE(trace_json.at("traceEvents").empty());
    EXPECT_GE(line_count(read_file(csv + "/spans.csv")), 2u);
    EXPECT_GE(line_count(read_file(csv + "/counters.csv")), 2u);
}

TEST(CliRun, FlagsOverrideTheConfigFile) {
    TempDir dir;
    std::ofstream(dir.file("config.json"))
        << R"({"batch_size": 4, "sample_shape": [3, 32, 32], "num_workers": 1, "batches": 10})";
    const std::string summary = dir.file("summary.json");
    const CliResult result =
        run_cli({"run", "--config", dir.file("config.json"), "--batches", "20", "--summary", summary});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(nlohmann::json::parse(read_file(summary)).at("batches").get<std::uint64_t>(), 20u);
}

TEST(CliRun, CopyStreamFlagReachesTheRunAndItsSummary) {
    TempDir dir;
    const std::string summary = dir.file("summary.json");
    const CliResult result = run_cli(short_run({"--copy-stream", "compute", "--non-blocking", "off", "--summary", summary}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("non_blocking off, copy_stream compute"), std::string::npos) << result.out;
    const auto config = nlohmann::json::parse(read_file(summary)).at("config");
    EXPECT_EQ(config.at("copy_stream"), "compute");
    EXPECT_EQ(config.at("non_blocking"), false);
}

TEST(CliRun, UnwritableSummaryFailsWithoutAFile) {
    TempDir dir;
    const std::string summary = dir.file("missing-folder/summary.json");
    const CliResult result = run_cli(short_run({"--summary", summary}));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find(summary), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(summary));
    EXPECT_FALSE(std::filesystem::exists(dir.file("missing-folder")));
}

TEST(CliRun, SummaryOntoADirectoryFails) {
    TempDir dir;
    const CliResult result = run_cli(short_run({"--summary", dir.path().string()}));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("--summary"), std::string::npos) << result.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path().string()));
}

}  // namespace
}  // namespace pinscope::test
