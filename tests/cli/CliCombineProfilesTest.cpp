// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli combine-profiles: writes one profile that loads and says how far to trust it; bad
// input exits 2 naming what is wrong, and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

TEST(CliCombineProfiles, WritesAProfileTheEmulatedDeviceRunsAndSaysHowManyMachines) {
    TempDir dir;
    const std::string out = dir.file("fleet.json");
    const CliResult result =
        run_cli({"combine-profiles", "--name", "fleet", "--out", out, "h200-pcie5", "h200-pcie5", "h200-pcie5"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("The median of 3 machines of one kind (their pinned copies within 1 %"), std::string::npos)
        << result.out;
    const CliResult run = run_cli({"run", "--device", "emulated:" + out, "--seconds", "0.3"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(CliCombineProfiles, BadInputExitsTwoAndWritesNothing) {
    TempDir dir;
    const std::string out = dir.file("fleet.json");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--name", "fleet", "--out", out, "h200-pcie5"}, "profiles: '1 given' is not allowed; expected two profiles or more"},
        {{"--name", "-x", "--out", out, "h200-pcie5", "h100-pcie5"}, "--name: '-x' is not allowed"},
        {{"--name", "fleet", "--out", out, "h200-pcie5", "no-such.json"}, "profiles: 'no-such.json' is not allowed; expected a built-in profile"},
        {{"--name", "fleet", "--out", out, "h200-pcie5", "h200-pcie5-calibrated"}, "is not allowed; expected a profile measured at the same sizes as h200-pcie5"},
    };
    for (const auto& [flags, message] : cases) {
        std::vector<std::string> args{"combine-profiles"};
        args.insert(args.end(), flags.begin(), flags.end());
        const CliResult result = run_cli(args);
        EXPECT_EQ(result.exit_code, 2) << result.err;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

}  // namespace
}  // namespace pinscope
