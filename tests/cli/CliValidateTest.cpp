// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli validate: bad flags exit 2 naming the flag; without a GPU, --device cuda exits 1
// saying why; the emulated device against itself (modelled time) agrees to the last digit.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

TEST(CliValidate, BadFlagsExitTwoNamingTheFlag) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--cells", "1"}, "--cells: '1' is not allowed"},
        {{"--cells", "many"}, "--cells: 'many' is not allowed"},
        {{"--cells", "1001"}, "--cells: '1001' is not allowed"},
        {{"--seed", "-1"}, "--seed: '-1' is not allowed"},
        {{"--seconds", "0"}, "--seconds: '0' is not allowed"},
        {{"--seconds", "nan"}, "--seconds: 'nan' is not allowed"},
        {{"--repeat", "0"}, "--repeat: '0' is not allowed; expected a whole number from 1 to 10"},
        {{"--repeat", "11"}, "--repeat: '11' is not allowed"},
        {{"--device", "auto"}, "--device: 'auto' is not allowed"},
        {{"--device", "emulated:no-such-profile"}, "--device: 'emulated:no-such-profile' is not allowed"},
        {{"--device", "emulated", "--profile", "no-such-profile"}, "--profile: 'no-such-profile' is not allowed"},
        {{"--device", "emulated", "--profile-out", "p.json"}, "--profile-out: 'p.json' is not allowed"},
        {{"--device", "emulated", "--trust-out", "t.json"}, "--trust-out: 't.json' is not allowed; expected a file only with a GPU"},
    };
    for (const auto& [flags, message] : cases) {
        std::vector<std::string> args{"validate"};
        args.insert(args.end(), flags.begin(), flags.end());
        const CliResult result = run_cli(args);
        EXPECT_EQ(result.exit_code, 2) << flags.front() << ": " << result.err;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
        EXPECT_EQ(result.out, "");
    }
}

TEST(CliValidate, UnwritableCsvFailsBeforeAnythingRuns) {
    TempDir dir;
    const CliResult result = run_cli({"validate", "--device", "emulated", "--csv", dir.file("missing/v.csv")});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("--csv: cannot write"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("[1/"), std::string::npos) << "no cell ran: " << result.err;
}

TEST(CliValidate, CudaWithoutAGpuFailsSayingWhy) {
    if (!std::filesystem::exists("/dev/nvidia0")) {
        for (const std::vector<std::string>& flags :
             {std::vector<std::string>{"validate", "--device", "cuda"},
              std::vector<std::string>{"validate", "--device", "cuda:1", "--profile", "h200-pcie5", "--cells", "2"}}) {
            const CliResult result = run_cli(flags);
            EXPECT_EQ(result.exit_code, 1) << result.err;
            EXPECT_NE(result.err.find("cuda"), std::string::npos) << result.err;
            // Built with CUDA it finds no GPU; built without, it says the build has no CUDA.
            EXPECT_TRUE(result.err.find("GPU") != std::string::npos ||
                        result.err.find("no CUDA support") != std::string::npos)
                << result.err;
            EXPECT_EQ(result.out, "");
        }
    } else {
        GTEST_SKIP() << "this machine has an NVIDIA GPU";
    }
}

TEST(CliValidate, TheEmulatedDeviceAgainstItselfHasNoErrorAndWritesItsCsv) {
    TempDir dir;
    const std::string csv = dir.file("cells.csv");
    CliRunOptions options;
    options.timeout = std::chrono::milliseconds(120000);
    const CliResult result = run_cli(
        {"validate", "--device", "emulated:h100-pcie5", "--cells", "6", "--seconds", "1", "--seed", "11", "--repeat", "2",
         "--csv", csv},
        options);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("within 10 %: 6 of 6 (100.0 %) cells; within 15 %: 6 of 6 (100.0 %) cells"),
              std::string::npos)
        << result.out;
    EXPECT_EQ(result.out.find("DISAGREE"), std::string::npos) << result.out;
    // A profile in modelled time repeats itself exactly.
    EXPECT_NE(result.out.find("emulated:h100-pcie5 against itself (the spread of each cell's runs, whose median the "
                              "table gives): within 10 %: 6 of 6 (100.0 %) cells; median spread 0.0 %"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("pairs that differ in one setting: "), std::string::npos) << result.out;
    const std::string text = read_file(csv);
    std::size_t rows = 0;
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1)) ++rows;
    EXPECT_EQ(rows, 7u) << text;  // the header and six cells
    for (std::size_t at = text.find('\n') + 1; at < text.size(); at = text.find('\n', at) + 1) {
        const std::string line = text.substr(at, text.find('\n', at) - at);
        EXPECT_NE(line.find(",0.00,2,0.00,"), std::string::npos) << "error, runs, spread: " << line;
    }
}

}  // namespace
}  // namespace pinscope::test
