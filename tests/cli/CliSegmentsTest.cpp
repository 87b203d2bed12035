// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli and segments: run --change reconfigures a run as it goes; run and show print one
// line per segment, summary.json and segments.csv have each segment's figures; compare takes
// FILE:RUN:SEG; bad --change values and segment numbers are refused (exit 2).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

std::vector<std::string> changing_run(std::vector<std::string> extra) {
    std::vector<std::string> args{"run", "--seconds", "2.4", "--workers", "4", "--device", "emulated", "--no-advice",
                                  "--change", "0.8:pin_memory=false", "--change", "1.6:num_workers=2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(CliSegments, ARunChangedTwicePrintsRecordsAndComparesThreeSegments) {
    TempDir dir;
    const std::string recording = dir.file("runs.pinscope");
    const CliResult run = run_cli(changing_run({"--record", recording, "--summary", dir.file("summary.json"), "--csv",
                                                dir.file("csv")}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "reconfigured    2 times")) << run.out;
    EXPECT_TRUE(contains(run.out, "segment  time (s)  batches/s")) << run.out;
    EXPECT_TRUE(contains(run.out, "as the run began")) << run.out;
    EXPECT_TRUE(contains(run.out, "pin_memory: on -> off")) << run.out;
    EXPECT_TRUE(contains(run.out, "num_workers: 4 -> 2")) << run.out;

    const auto summary = nlohmann::json::parse(read_file(dir.file("summary.json")));
    ASSERT_EQ(summary.at("segments").size(), 3u);
    std::uint64_t batches = 0;
    for (const auto& segment : summary.at("segments")) batches += segment.at("batches").get<std::uint64_t>();
    EXPECT_EQ(batches, summary.at("batches").get<std::uint64_t>());
    const std::string csv = read_file(dir.file("csv/segments.csv"));
    EXPECT_TRUE(csv.starts_with("segment,start_s,end_s,change,batches_per_s")) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);  // header and three segments

    const CliResult show = run_cli({"show", recording});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_TRUE(contains(show.out, "segment  time (s)  batches/s")) << show.out;
    EXPECT_TRUE(contains(show.out, "num_workers: 4 -> 2")) << show.out;

    const CliResult before_after = run_cli({"compare", recording + ":1:1", recording + ":1:2"});
    ASSERT_EQ(before_after.exit_code, 0) << before_after.err;
    EXPECT_TRUE(contains(before_after.out, "A  segment 1 of run 1 of")) << before_after.out;
    EXPECT_TRUE(contains(before_after.out, "B  segment 2 of run 1 of")) << before_after.out;
    EXPECT_TRUE(contains(before_after.out, "  pin_memory: on -> off")) << before_after.out;

    const CliResult both = run_cli({"compare", recording + ":1", recording + ":1"});
    ASSERT_EQ(both.exit_code, 0) << both.err;
    EXPECT_TRUE(contains(both.out, "segment by segment")) << both.out;

    const CliResult missing = run_cli({"compare", recording + ":1:4", recording});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_TRUE(contains(missing.err, "run 1 has 3 segments (1 to 3)")) << missing.err;
    EXPECT_EQ(run_cli({"compare", recording + ":1:0", recording}).exit_code, 2);
}

TEST(CliSegments, ABadChangeIsRefusedNamingTheFlag) {
    const auto refused = [](const std::string& change, const std::string& says) {
        const CliResult r = run_cli({"run", "--seconds", "1", "--device", "emulated", "--change", change});
        EXPECT_EQ(r.exit_code, 2) << change;
        EXPECT_TRUE(contains(r.err, "--change")) << r.err;
        EXPECT_TRUE(contains(r.err, says)) << change << ": " << r.err;
    };
    refused("pin_memory=false", "SECONDS:KEY=VALUE");
    refused("0.5:no_such_key=1", "a configuration key");
    refused("5:pin_memory=false", "before the run's end");
    refused("x:pin_memory=false", "a time in seconds");
    refused("0.5:num_workers=-3", "num_workers");
}

}  // namespace
}  // namespace pinscope::test
