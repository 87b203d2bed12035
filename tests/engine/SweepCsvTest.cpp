// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "engine/sweep/SweepCsv.h"

namespace pinscope {
namespace {

TEST(SweepCsv, EmptyCellsWhereFieldsDoNotApply) {
    SweepRow row;
    row.config.num_workers = 0;
    row.config.pin_memory = false;
    row.summary.metrics.batches_per_s = 412.25;
    row.summary.metrics.batches = 40;
    row.summary.pinned.reserved_bytes.peak = 1 << 20;
    std::ostringstream out;
    write_sweep_csv(out, {row});
    std::istringstream in(out.str());
    std::string header;
    std::string line;
    std::getline(in, header);
    std::getline(in, line);
    EXPECT_EQ(header, kSweepCsvHeader);
    EXPECT_EQ(line.rfind("0,,off,,412.250,", 0), 0u) << line;
    EXPECT_NE(line.find(",1048576,40,"), std::string::npos) << line;
}

TEST(SweepCsv, AppliedPrefetchAndPinMode) {
    SweepRow row;
    row.config.num_workers = 4;
    row.config.prefetch_factor.reset();  // PyTorch's default, 2
    row.config.pin_memory = true;
    row.config.pin_mode = PinMode::Worker;
    std::ostringstream out;
    write_sweep_csv(out, {row, row});
    const std::string text = out.str();
    EXPECT_NE(text.find("\n4,2,on,worker,"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
}

TEST(SweepCsv, NumaPoliciesComeLastWithCpuListsQuoted) {
    SweepRow row;
    row.config.bind_workers = {CpuBindPolicy::CpuList, {0, 1, 2, 3, 8}};
    row.config.bind_pin_thread = {CpuBindPolicy::GpuLocal, {}};
    row.config.membind = MemoryPlacement::Remote;
    row.summary.numa.usage.cross_node_h2d_bytes = 4096;
    std::ostringstream out;
    write_sweep_csv(out, {row});
    const std::string text = out.str();
    EXPECT_NE(text.find(",\"0-3,8\",local,none,remote,4096,"), std::string::npos) << text;
}

TEST(SweepCsv, GpuStarvedKeepsDataWaitsColumnAndItsSplitAndTheConsumersWaitsComeLast) {
    SweepRow row;
    row.summary.metrics.gpu_busy = 0.75;
    row.summary.metrics.copy_hidden = 0.5;
    row.summary.metrics.gpu_starved = 0.2;
    row.summary.metrics.gpu_starved_copy = 0.05;
    row.summary.metrics.gpu_starved_host = 0.15;
    row.summary.metrics.consumer_wait = 0.9;
    row.summary.metrics.host_held = 0.01;
    row.summary.numa.usage.cross_node_h2d_bytes = 7;
    std::ostringstream out;
    write_sweep_csv(out, {row});
    const std::string text = out.str();
    EXPECT_NE(text.find(",0.7500,0.5000,0.2000,"), std::string::npos) << text;
    EXPECT_NE(text.find(",7,0.0500,0.1500,0.9000,0.0100,side\n"), std::string::npos) << text;
    EXPECT_EQ(std::string(kSweepCsvHeader).find("data_wait"), std::string::npos);
}

TEST(SweepCsv, CopyStreamIsTheLastColumn) {
    SweepRow row;
    row.config.copy_stream = CopyStream::Compute;
    std::ostringstream out;
    write_sweep_csv(out, {row});
    const std::string text = out.str();
    EXPECT_NE(text.find(",copy_stream\n"), std::string::npos) << text;
    EXPECT_NE(text.find(",compute\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace pinscope
