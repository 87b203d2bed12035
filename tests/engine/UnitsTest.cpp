// SPDX-License-Identifier: GPL-3.0-or-later
// Sizes read in binary units and rates in decimal GB/s, the same in every output.
#include <gtest/gtest.h>

#include "engine/config/LoaderConfig.h"
#include "engine/export/SummaryJson.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

TEST(Units, MemoryInBinaryUnitsWholeValuesWithoutDecimals) {
    EXPECT_EQ(memory_text(512), "512 B");
    EXPECT_EQ(memory_text(64.0 * kMiB), "64 MiB");
    EXPECT_EQ(memory_text(38'535'168), "36.8 MiB");  // the default batch, 64 x 3x224x224 f32
    EXPECT_EQ(memory_text(6.3e9), "5.9 GiB");
    EXPECT_EQ(memory_text(1.5 * kKiB, 2), "1.50 KiB");
}

TEST(TextFormat, AListReadsAsASentence) {
    EXPECT_EQ(format_list({}), "");
    EXPECT_EQ(format_list({"1 MiB"}), "1 MiB");
    EXPECT_EQ(format_list({"0", "1"}), "0 and 1");
    EXPECT_EQ(format_list({"0", "1", "2", "4"}), "0, 1, 2 and 4");
}

TEST(Units, RatesInDecimalGigabytesPerSecond) {
    EXPECT_EQ(rate_text(13.21e9), "13.21 GB/s");
    EXPECT_EQ(rate_text(55.5e9, 1), "55.5 GB/s");
}

TEST(Units, TheRunSummarySaysTheBatchInMiBAsTheWindowDoes) {
    RunSummary summary;
    summary.config = LoaderConfig{};
    const std::string text = format_summary(summary);
    EXPECT_NE(text.find("(36.8 MiB)"), std::string::npos) << text;
}

}  // namespace
}  // namespace pinscope
