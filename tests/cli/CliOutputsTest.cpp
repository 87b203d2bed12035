// SPDX-License-Identifier: GPL-3.0-or-later
// Where pinscope-cli run writes: standard output, devices, links, and what a killed run leaves.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

std::vector<std::string> outputs_run(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"run", "--batches", "20", "--batch-size", "4", "--workers", "1",
                                  "--sample-shape", "3x16x16", "--host", "modeled"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::set<std::string> temporaries_in(const std::string& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".pinscope-") != std::string::npos) names.insert(name);
    }
    return names;
}

TEST(CliOutputs, DashWritesTheSummaryToStandardOutput) {
    const CliResult result = run_cli(outputs_run({"--summary", "-"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::size_t brace = result.out.find("{\n");
    ASSERT_NE(brace, std::string::npos) << result.out;
    const std::size_t end = result.out.find("\n}\n", brace);
    ASSERT_NE(end, std::string::npos) << result.out;
    const auto json = nlohmann::json::parse(result.out.substr(brace, end + 3 - brace));
    EXPECT_EQ(json.at("batches").get<std::uint64_t>(), 20u);
}

TEST(CliOutputs, DevFullIsAFailureThatSaysWhy) {
    const CliResult result = run_cli(outputs_run({"--trace", "/dev/full"}));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.err.find("cannot write /dev/full: "), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("No space left on device"), std::string::npos) << result.err;
}

TEST(CliOutputs, SymlinkKeepsPointingAtItsReplacedTarget) {
    TempDir dir;
    std::ofstream(dir.file("real.json")) << "old";
    std::filesystem::create_symlink("real.json", dir.file("link.json"));
    const CliResult result = run_cli(outputs_run({"--summary", dir.file("link.json")}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.json")));
    EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("real.json"))).at("batches").get<std::uint64_t>(), 20u);
}

TEST(CliOutputs, SweepCsvToADashGoesToStandardOutput) {
    const CliResult result =
        run_cli({"sweep", "--batches", "10", "--batch-size", "4", "--sample-shape", "3x16x16", "--workers", "0,1", "--csv", "-"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\nworkers,prefetch_factor,pin_memory,"), std::string::npos) << result.out;
}

TEST(CliOutputs, TemporariesOfAKilledRunAreRemovedByTheNextRun) {
    TempDir dir;
    const std::string csv = dir.file("csv");
    const std::string trace = dir.file("trace.json");
    const pid_t pid = start_cli({"run", "--seconds", "600", "--workers", "1", "--sample-shape", "3x16x16",
                                 "--host", "modeled", "--csv", csv, "--trace", trace});
    ASSERT_GT(pid, 0);
    // The outputs are opened before the run starts; wait for them (never long), then kill.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while ((!std::filesystem::exists(csv) || temporaries_in(csv).size() < 4 || temporaries_in(dir.path().string()).empty()) &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ASSERT_GE(temporaries_in(csv).size(), 4u) << "spans, counters, numa and summary under way";
    ASSERT_GE(temporaries_in(dir.path().string()).size(), 1u) << "the trace under way";
    for (const std::string& name : temporaries_in(csv))
        EXPECT_NE(name.find(".pinscope-" + std::to_string(pid) + "-"), std::string::npos) << name;

    const CliResult next = run_cli(outputs_run({"--csv", csv, "--trace", trace}));
    ASSERT_EQ(next.exit_code, 0) << next.err;
    EXPECT_TRUE(temporaries_in(csv).empty());
    EXPECT_TRUE(temporaries_in(dir.path().string()).empty());
    EXPECT_TRUE(std::filesystem::exists(csv + "/spans.csv"));
}

}  // namespace
}  // namespace pinscope::test
