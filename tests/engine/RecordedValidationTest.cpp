// SPDX-License-Identifier: GPL-3.0-or-later
// A validation's CSV reads back as it was written: the cells' configurations, which pair each
// belongs to, and the real device's figures; files written before the runs' columns existed too.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/validate/RecordedValidation.h"
#include "engine/validate/ValidationCsv.h"

namespace pinscope {
namespace {

TEST(RecordedValidation, ReadsBackWhatValidateWrote) {
    LoaderConfig base;
    base.seconds = 3;
    base.batches.reset();
    const std::vector<ValidationCell> cells = draw_cells(base, 12, 7);
    std::vector<CellRates> rates;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        rates.push_back(real_runs({100.0 + static_cast<double>(k), 110.5 + static_cast<double>(k)}, 50.0));
        if (k % 2 == 0) rates.back().host = HostReading{4.25 + static_cast<double>(k), 1.625, 1234.5};
        if (k % 3 == 0) rates.back().real_host_us = 2500.5 + static_cast<double>(k);
        rates.back().emulated_host_us = 2000;
    }
    std::ostringstream out;
    write_validation_csv(out, cells, rates);

    const RecordedValidation read = parse_validation_csv(out.str());
    ASSERT_EQ(read.cells.size(), cells.size());
    for (std::size_t k = 0; k < cells.size(); ++k) {
        EXPECT_TRUE(differing_settings(read.cells[k].config, cells[k].config).empty()) << "cell " << k + 1;
        EXPECT_EQ(read.cells[k].config.batch_bytes(), cells[k].config.batch_bytes());
        EXPECT_EQ(read.cells[k].pair_of, cells[k].pair_of);
        if (cells[k].pair_of >= 0) {
            EXPECT_EQ(read.cells[k].changed, cells[k].changed);
        }
        EXPECT_NEAR(read.rates[k].real, rates[k].real, 1e-3);
        EXPECT_EQ(read.rates[k].real_count, 2u);
        EXPECT_NEAR(read.rates[k].real_slowest, rates[k].real_slowest, 1e-3);
        EXPECT_NEAR(read.rates[k].real_fastest, rates[k].real_fastest, 1e-3);
        EXPECT_NEAR(read.rates[k].real_spread, rates[k].real_spread, 1e-4);
        EXPECT_EQ(read.rates[k].emulated, 0.0);  // the caller runs the emulated side
        EXPECT_EQ(read.rates[k].host, rates[k].host) << "the host read before cell " << k + 1;
        EXPECT_NEAR(read.rates[k].real_host_us, rates[k].real_host_us, 1e-9) << "the host's work in cell " << k + 1;
        EXPECT_EQ(read.rates[k].emulated_host_us, 0.0);
    }
}

TEST(RecordedValidation, AFileOfBeforeTheRunsColumnsIsOneRunPerCellAndCrLfIsRead) {
    const std::string text =
        "cell,pair_of,changed,batch_size,sample_shape,dtype,batch_bytes,cpu_us_per_sample,num_workers,prefetch_factor,"
        "pin_memory,pin_mode,non_blocking,gpu_us_per_batch,real_batches_per_s,emulated_batches_per_s,error_percent\r\n"
        "1,,,3,2x1022878,bf16,12274536,0.0,2,1,on,pool,off,0.0,310.958,261.620,-15.87\r\n"
        "2,1,cpu_us_per_sample,3,2x1022878,bf16,12274536,135.0,2,1,on,pool,off,0.0,309.781,246.939,-20.29\r\n"
        "3,,,18,55902,f32,4024944,0.0,0,,off,,on,550.0,1.5,1.0,-33.33\r\n";
    const RecordedValidation read = parse_validation_csv(text);
    ASSERT_EQ(read.cells.size(), 3u);
    EXPECT_EQ(read.cells[1].pair_of, 0);
    EXPECT_EQ(read.cells[1].changed, CellSetting::CpuUs);
    EXPECT_EQ(read.cells[1].config.cpu_us_per_sample, 135.0);
    EXPECT_EQ(read.cells[0].config.sample_shape, (std::vector<std::uint32_t>{2, 1022878}));
    EXPECT_EQ(read.cells[0].config.dtype, DType::BF16);
    EXPECT_FALSE(read.cells[2].config.pin_memory);
    EXPECT_EQ(read.cells[2].config.num_workers, 0u);
    EXPECT_DOUBLE_EQ(read.rates[0].real, 310.958);
    EXPECT_EQ(read.rates[0].real_count, 1u);
    EXPECT_EQ(read.rates[0].real_spread, 0.0);
    EXPECT_FALSE(read.rates[0].host.has_value());
    EXPECT_EQ(read.rates[0].real_host_us, 0.0);
}

}  // namespace
}  // namespace pinscope
