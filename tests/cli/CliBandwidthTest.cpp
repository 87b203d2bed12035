// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli bandwidth: the table, its CSV with 19 sizes per series, the series chosen, and
// failures that come before any measuring.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "engine/BuildConfig.h"
#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

constexpr const char* kBandwidthHeader = "direction,memory,bytes,gb_per_s,min_gb_per_s,max_gb_per_s,samples,plain_loop_gb_per_s";

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const auto comma = line.find(',', start);
        fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return fields;
        start = comma + 1;
    }
}

TEST(CliBandwidth, EmulatedSweepWritesNineteenSizesPerSeries) {
    TempDir dir;
    const std::string csv = dir.file("bandwidth.csv");
    const CliResult result = run_cli({"bandwidth", "--device", "emulated", "--csv", csv});
    ASSERT_EQ(result.exit_code, 0) << result.err;

    const auto rows = lines_of(read_file(csv));
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], kBandwidthHeader);
    std::map<std::string, std::vector<std::uint64_t>> sizes_by_series;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto fields = fields_of(rows[i]);
        ASSERT_EQ(fields.size(), 8u) << rows[i];
        sizes_by_series[fields[0] + " " + fields[1]].push_back(std::stoull(fields[2]));
        EXPECT_GT(std::stod(fields[3]), 0) << rows[i];
        EXPECT_EQ(fields[6], "5") << rows[i];
        EXPECT_EQ(fields[7].empty(), fields[0] + fields[1] != "h2dpinned") << rows[i];
    }
    EXPECT_EQ(sizes_by_series.size(), 6u);
    for (const auto& [series, sizes] : sizes_by_series) {
        ASSERT_EQ(sizes.size(), 19u) << series;
        EXPECT_EQ(sizes.front(), 4096u) << series;
        EXPECT_EQ(sizes.back(), 1u << 30) << series;
    }

    // The table: the link in the header, a row per size, a column per series.
    const auto table = lines_of(result.out);
    EXPECT_NE(result.out.find("link: PCIe Gen5 x16, 63.0 GB/s per direction"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("emulated:h200-pcie5"), std::string::npos) << result.out;
    const auto head = std::find_if(table.begin(), table.end(), [](const std::string& l) { return l.find("size") != std::string::npos; });
    ASSERT_NE(head, table.end()) << result.out;
    for (const char* column : {"h2d pinned", "h2d pageable", "h2d wc", "d2h pinned", "d2h pageable", "d2h wc"})
        EXPECT_NE(head->find(column), std::string::npos) << column;
    EXPECT_NE(result.out.find(" 16 MiB       54.20 "), std::string::npos) << result.out;  // the profile's 16 MiB
    EXPECT_NE(result.out.find("wrote " + csv), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("[114/114] d2h wc 1 GiB"), std::string::npos) << result.err;
}

TEST(CliBandwidth, ChosenSeriesAndSizes) {
    TempDir dir;
    const std::string csv = dir.file("h2d.csv");
    const CliResult result = run_cli({"bandwidth", "--device", "emulated", "--direction", "h2d", "--memory",
                                      "pageable,pinned", "--min-size", "1MiB", "--max-size", "6M", "--samples", "3",
                                      "--csv", csv});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = lines_of(read_file(csv));
    ASSERT_EQ(rows.size(), 1u + 2u * 4u);  // 1, 2, 4 MiB and the 6 MiB asked for
    EXPECT_EQ(rows[1].rfind("h2d,pageable,1048576,", 0), 0u) << rows[1];
    EXPECT_EQ(rows[4].rfind("h2d,pageable,6291456,", 0), 0u) << rows[4];
    EXPECT_EQ(rows[5].rfind("h2d,pinned,1048576,", 0), 0u) << rows[5];
    EXPECT_NE(rows[5].find(",3,"), std::string::npos) << rows[5];
    EXPECT_EQ(result.out.find("d2h"), std::string::npos) << result.out;
}

TEST(CliBandwidth, UnwritableCsvFailsBeforeMeasuring) {
    TempDir dir;
    const std::string csv = dir.file("missing/bandwidth.csv");
    const CliResult result = run_cli({"bandwidth", "--device", "emulated", "--csv", csv});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("--csv: cannot write " + csv), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("[1/"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(CliBandwidth, CudaWithoutCudaSupportIsARunTimeFailure) {
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has the CUDA device";
    const CliResult result = run_cli({"bandwidth", "--device", "cuda:0"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("no CUDA support"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(CliBandwidth, AutoWithoutAGpuSaysItUsesTheEmulatedDevice) {
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has the CUDA device: auto may find a GPU";
    const CliResult result = run_cli({"bandwidth", "--max-size", "8K"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("using the emulated device"), std::string::npos) << result.err;
    EXPECT_NE(result.out.find("emulated:h200-pcie5"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace pinscope::test
