// SPDX-License-Identifier: GPL-3.0-or-later
// SIGINT and SIGTERM stop pinscope-cli run and sweep within seconds whatever the run is waiting on
// (a 10 s kernel, 16 s of host work per batch, a profile whose device calls cost 10 s), and it
// writes complete outputs before it exits 130 or 143.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/device/HardwareProfile.h"
#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

using namespace std::chrono_literals;

// Generous for a loaded machine, and still half of the 10 s that each scenario has to cut short.
constexpr auto kPrompt = 5s;

std::vector<std::string> long_run(std::vector<std::string> extra) {
    std::vector<std::string> args{"run",           "--seconds", "600",    "--workers", "2", "--sample-shape",
                                  "3x32x32", "--host",    "modeled"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// The default profile, but every copy and launch call holds its caller for 10 s.
std::string write_slow_profile(const TempDir& dir) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.copy_call_us = 10e6;
    const std::string path = dir.file("slow-calls.json");
    std::ofstream(path) << to_json(profile).dump();
    return path;
}

struct Case {
    const char* name;
    int signal;
    std::vector<std::string> flags;
    bool slow_profile = false;
};
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class CliStop : public ::testing::TestWithParam<Case> {};

TEST_P(CliStop, RunEndsPromptlyWritesCompleteOutputsAndExitsWithTheSignal) {
    TempDir dir;
    std::vector<std::string> flags = GetParam().flags;
    if (GetParam().slow_profile) flags.insert(flags.end(), {"--device", "emulated:" + write_slow_profile(dir)});
    flags.insert(flags.end(), {"--csv", dir.file("csv"), "--trace", dir.file("trace.json"), "--summary",
                               dir.file("summary.json")});
    CliRunOptions options;
    options.interrupt_after = 500ms;
    options.interrupt_signal = GetParam().signal;
    options.timeout = 60s;
    const CliResult result = run_cli(long_run(flags), options);

    ASSERT_FALSE(result.timed_out) << result.err;
    ASSERT_TRUE(result.exit_after_interrupt) << "never interrupted: " << result.err;
    EXPECT_LT(*result.exit_after_interrupt, kPrompt) << result.err;
    EXPECT_EQ(result.exit_code, 128 + GetParam().signal) << result.err;
    EXPECT_NE(result.err.find("interrupted"), std::string::npos) << result.err;
    EXPECT_NE(result.out.find("batches/s"), std::string::npos) << result.out;

    const nlohmann::json summary = nlohmann::json::parse(read_file(dir.file("summary.json")));
    EXPECT_TRUE(summary.contains("batches")) << summary.dump();
    EXPECT_NO_THROW(nlohmann::json::parse(read_file(dir.file("trace.json"))));
    EXPECT_NO_THROW(nlohmann::json::parse(read_file(dir.file("csv") + "/summary.json")));
    for (const char* csv : {"spans.csv", "counters.csv", "numa.csv"}) {
        const std::string text = read_file(dir.file("csv") + "/" + csv);
        EXPECT_FALSE(text.empty()) << csv;
        EXPECT_EQ(text.back(), '\n') << csv << " ends in the middle of a line";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Waits, CliStop,
    ::testing::Values(Case{"SigintDuringATenSecondKernel", SIGINT, {"--gpu-us", "10000000", "--device", "emulated"}},
                      Case{"SigtermDuringSixteenSecondsOfWorkPerBatch", SIGTERM, {"--cpu-us", "1000000", "--batch-size", "16", "--device", "emulated"}},
                      Case{"SigintDuringTenSecondDeviceCalls", SIGINT, {}, true}),
    [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

TEST(CliStopSweep, SigtermEndsTheSweepWritesItsTableAndExits143) {
    TempDir dir;
    CliRunOptions options;
    options.interrupt_after = 500ms;
    options.interrupt_signal = SIGTERM;
    options.timeout = 60s;
    const CliResult result =
        run_cli({"sweep", "--workers", "0,2", "--gpu-us", "10000000", "--seconds", "600", "--batch-size", "4",
                 "--sample-shape", "3x32x32", "--device", "emulated", "--csv", dir.file("sweep.csv")},
                options);
    ASSERT_FALSE(result.timed_out) << result.err;
    ASSERT_TRUE(result.exit_after_interrupt) << "never interrupted: " << result.err;
    EXPECT_LT(*result.exit_after_interrupt, kPrompt) << result.err;
    EXPECT_EQ(result.exit_code, 143) << result.err;
    EXPECT_NE(result.err.find("interrupted after 0 of 2 combinations"), std::string::npos) << result.err;
    const std::string csv = read_file(dir.file("sweep.csv"));
    EXPECT_FALSE(csv.empty());
    EXPECT_EQ(csv.back(), '\n');
}

}  // namespace
}  // namespace pinscope::test
