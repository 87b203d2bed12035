// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli sweep: combinations, PyTorch's rules between fields, the table and its CSV.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

constexpr const char* kSweepHeader =
    "workers,prefetch_factor,pin_memory,pin_mode,batches_per_s,samples_per_s,h2d_gb_per_s,gpu_busy,copy_hidden,"
    "gpu_starved,pinned_peak_bytes,batches,wall_s,bind_workers,bind_pin_thread,bind_consumer,membind,"
    "cross_node_h2d_bytes,gpu_starved_copy,gpu_starved_host,consumer_wait,host_held,copy_stream";

std::vector<std::string> sweep(std::vector<std::string> extra) {
    std::vector<std::string> args{"sweep", "--batches", "20", "--batch-size", "4", "--sample-shape", "3x32x32"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(CliSweep, FourCombinationsTableAndCsv) {
    TempDir dir;
    const std::string csv = dir.file("sweep.csv");
    const CliResult result = run_cli(sweep({"--workers", "0,2", "--pin-memory", "off,on", "--csv", csv}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[4/4] workers=2 prefetch=2 pin_memory=on pin_mode=pool ... "), std::string::npos)
        << result.err;

    const auto table = lines_of(result.out);
    ASSERT_GE(table.size(), 5u) << result.out;
    EXPECT_EQ(table[0].rfind("workers", 0), 0u) << table[0];
    for (const char* column :
         {"batches/s", "samples/s", "H2D GB/s", "GPU busy %", "copy hidden %", "GPU starved %", "consumer wait %",
          "pinned peak MiB"})
        EXPECT_NE(table[0].find(column), std::string::npos) << column;
    EXPECT_EQ(count_of(result.out, "<- best"), 1u) << result.out;
    EXPECT_NE(result.out.find("wrote " + csv), std::string::npos) << result.out;

    const auto rows = lines_of(read_file(csv));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0], kSweepHeader);
    EXPECT_EQ(rows[1].rfind("0,,off,,", 0), 0u) << rows[1];
    EXPECT_EQ(rows[2].rfind("0,,on,pool,", 0), 0u) << rows[2];
    EXPECT_EQ(rows[3].rfind("2,2,off,,", 0), 0u) << rows[3];
    EXPECT_EQ(rows[4].rfind("2,2,on,pool,", 0), 0u) << rows[4];
}

TEST(CliSweep, CopyStreamTakesAListLikeTheOtherEnums) {
    TempDir dir;
    const std::string csv = dir.file("sweep.csv");
    const CliResult result =
        run_cli(sweep({"--workers", "2", "--non-blocking", "off", "--copy-stream", "side,compute", "--csv", csv}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[2/2] workers=2 prefetch=2 pin_memory=on pin_mode=pool copy_stream=compute ... "),
              std::string::npos)
        << result.err;
    const auto table = lines_of(result.out);
    ASSERT_GE(table.size(), 3u) << result.out;
    EXPECT_NE(table[0].find("copy_stream"), std::string::npos) << table[0];
    EXPECT_NE(table[1].find(" side "), std::string::npos) << table[1];
    EXPECT_NE(table[2].find(" compute "), std::string::npos) << table[2];
    const auto rows = lines_of(read_file(csv));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_TRUE(rows[1].ends_with(",side")) << rows[1];
    EXPECT_TRUE(rows[2].ends_with(",compute")) << rows[2];

    const CliResult bad = run_cli(sweep({"--copy-stream", "side,current"}));
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--copy-stream"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("one of: side, compute"), std::string::npos) << bad.err;
}

TEST(CliSweep, PrefetchWithoutWorkersRunsOnce) {
    const CliResult result = run_cli(sweep({"--workers", "0", "--prefetch", "2,4"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[1/1] workers=0 prefetch=-"), std::string::npos) << result.err;
    EXPECT_EQ(lines_of(result.out).size(), 2u) << result.out;  // header and one row
}

TEST(CliSweep, PinModesWithPinMemoryOffRunOnce) {
    const CliResult result = run_cli(sweep({"--workers", "1", "--pin-memory", "off", "--pin-mode", "pool,worker"}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(lines_of(result.out).size(), 2u) << result.out;
}

TEST(CliSweep, AnInvalidCombinationStopsBeforeAnyRun) {
    const CliResult result = run_cli(sweep({"--workers", "2,8", "--prefetch", "2,100"}));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("workers=2 prefetch=100"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("[1/"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(CliSweep, UnwritableCsvFailsBeforeRunning) {
    TempDir dir;
    const std::string csv = dir.file("missing/sweep.csv");
    const CliResult result = run_cli(sweep({"--workers", "0,1", "--csv", csv}));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find(csv), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("[1/"), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(csv));
}

}  // namespace
}  // namespace pinscope::test
