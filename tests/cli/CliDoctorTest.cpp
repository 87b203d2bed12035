// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli doctor: a line per check with its verdict, exit 0 whatever it finds, 2 for bad
// arguments; and run's bottleneck line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

TEST(CliDoctor, PrintsAVerdictPerCheckAndExitsZero) {
    TempDir root;
    std::filesystem::create_directories(root.path() / "proc/self");
    std::ofstream(root.path() / "proc/self/limits") << "Max locked memory         65536                65536                bytes\n";
    const CliResult result = run_cli({"doctor", "--root", root.path().string(), "--workers", "8"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("warn  memlock        RLIMIT_MEMLOCK 64 KiB: this configuration would lock up to"),
              std::string::npos)
        << result.out;
    for (const char* name : {"cgroup memory", "swap", "memory", "pinned budget", "container", "huge pages",
                             "pcie link", "driver", "numa", "cpu governor"})
        EXPECT_NE(result.out.find(name), std::string::npos) << name << "\n" << result.out;
}

TEST(CliDoctor, BadArgumentExitsTwoNamingTheFlag) {
    const CliResult result = run_cli({"doctor", "--workers", "x"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--workers"), std::string::npos) << result.err;
}

TEST(CliRunBottleneck, PrintsTheBottleneckAndWithoutAdviceNoTryLines) {
    const CliResult result = run_cli({"run", "--device", "emulated", "--seconds", "1", "--no-advice"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("bottleneck      Bound by "), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("try "), std::string::npos) << result.out;
}

TEST(CliRunBottleneck, PrintsPredictedSuggestionsAndWritesThemToTheSummary) {
    TempDir dir;
    CliRunOptions options;
    options.timeout = std::chrono::milliseconds(60000);  // the run, then two predictions of 2 s
    const CliResult result =
        run_cli({"run", "--device", "emulated", "--seconds", "1.5", "--summary", dir.file("summary.json")}, options);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("try             pin_mode worker: "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find(" predicted ("), std::string::npos) << result.out;
    const auto summary = nlohmann::json::parse(read_file(dir.file("summary.json")));
    EXPECT_EQ(summary.at("bottleneck").at("resource"), "pin_thread");
    EXPECT_GT(summary.at("bottleneck").at("bound_batches_per_s").get<double>(), 0);
    ASSERT_FALSE(summary.at("advice").empty());
    EXPECT_EQ(summary.at("advice")[0].at("key"), "pin_mode");
    EXPECT_EQ(summary.at("advice")[0].at("value"), "worker");
}

}  // namespace
}  // namespace pinscope::test
