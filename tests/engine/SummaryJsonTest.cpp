// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/BuildConfig.h"
#include "engine/export/SummaryJson.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using nlohmann::json;

// Through text, as a reader of summary.json sees it.
json round_trip(const RunSummary& summary) { return json::parse(summary_to_json(summary).dump(2)); }

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> all;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) all.push_back(line);
    return all;
}

TEST(SummaryJson, HasEveryRequiredKeyWithItsType) {
    const json j = round_trip(test::sample_summary());
    for (const char* key : {"batches_per_s", "samples_per_s", "h2d_gb_per_s", "gpu_busy", "copy_hidden", "gpu_starved",
                            "gpu_starved_copy", "gpu_starved_host", "consumer_wait", "host_held", "wall_s"}) {
        ASSERT_TRUE(j.contains(key)) << key;
        EXPECT_TRUE(j[key].is_number()) << key;
    }
    for (const char* key : {"pinned_peak_bytes", "pinned_in_use_peak_bytes", "batches", "samples", "dropped_spans",
                            "reconfigurations"}) {
        ASSERT_TRUE(j.contains(key)) << key;
        EXPECT_TRUE(j[key].is_number_integer()) << key;
    }
    EXPECT_TRUE(j.at("device").is_object());
    EXPECT_TRUE(j.at("host").is_string());
    EXPECT_TRUE(j.at("config").is_object());
    EXPECT_TRUE(j.at("pinned").is_object());
    EXPECT_TRUE(j.at("warnings").is_array());
    EXPECT_TRUE(j.contains("memlock_limit_bytes"));
    EXPECT_TRUE(j.contains("error"));
    EXPECT_EQ(j.at("pinscope_version"), PINSCOPE_VERSION);
}

TEST(SummaryJson, CarriesTheRunsFigures) {
    const json j = round_trip(test::sample_summary());
    EXPECT_DOUBLE_EQ(j.at("batches_per_s").get<double>(), 0.8);
    EXPECT_DOUBLE_EQ(j.at("samples_per_s").get<double>(), 6.4);
    EXPECT_DOUBLE_EQ(j.at("h2d_gb_per_s").get<double>(), 49.4);
    EXPECT_DOUBLE_EQ(j.at("wall_s").get<double>(), 2.5);
    EXPECT_EQ(j.at("batches"), 2);
    EXPECT_EQ(j.at("samples"), 16);
    EXPECT_EQ(j.at("pinned_peak_bytes"), 4'194'304);         // reserved_bytes.peak
    EXPECT_EQ(j.at("pinned_in_use_peak_bytes"), 2'097'152);  // allocated_bytes.peak
    EXPECT_EQ(j.at("reconfigurations"), 1);
    EXPECT_DOUBLE_EQ(j.at("gpu_starved").get<double>(), 0.12);
    EXPECT_DOUBLE_EQ(j.at("gpu_starved_copy").get<double>(), 0.03);
    EXPECT_DOUBLE_EQ(j.at("gpu_starved_host").get<double>(), 0.09);
    EXPECT_DOUBLE_EQ(j.at("consumer_wait").get<double>(), 0.1);
    EXPECT_FALSE(j.contains("data_wait"));  // the consumer's wait is not the GPU's: no ambiguous name
    EXPECT_EQ(j.at("host"), "modeled");
    EXPECT_EQ(j.at("device"), (json{{"kind", "emulated"}, {"name", "NVIDIA H200 (modelled)"},
                                    {"profile", "h200-pcie5"}, {"detail", "PCIe Gen5 x16"}, {"pci_bus_id", ""}}));
}

TEST(SummaryJson, FractionsStayBetweenZeroAndOne) {
    RunSummary summary = test::sample_summary();
    summary.metrics.gpu_busy = 1.0000001;  // rounding of measured times
    summary.metrics.consumer_wait = -1e-12;
    const json j = round_trip(summary);
    for (const char* key :
         {"gpu_busy", "copy_hidden", "gpu_starved", "gpu_starved_copy", "gpu_starved_host", "consumer_wait", "host_held"}) {
        EXPECT_GE(j.at(key).get<double>(), 0.0) << key;
        EXPECT_LE(j.at(key).get<double>(), 1.0) << key;
    }
    EXPECT_DOUBLE_EQ(j.at("copy_hidden").get<double>(), 0.5);
}

TEST(SummaryJson, PinnedStatsUsePyTorchNames) {
    const json pinned = round_trip(test::sample_summary()).at("pinned");
    for (const char* stat : {"allocation", "segment", "allocated_bytes", "reserved_bytes"}) {
        for (const char* part : {"current", "peak", "allocated", "freed"})
            EXPECT_TRUE(pinned.at(stat).at(part).is_number_integer()) << stat << "." << part;
    }
    EXPECT_EQ(pinned.at("reserved_bytes").at("peak"), 4'194'304);
    for (const char* key : {"num_host_alloc", "num_host_free", "cache_hits", "budget_waits", "budget_bytes"})
        EXPECT_TRUE(pinned.at(key).is_number_integer()) << key;
    for (const char* timing : {"host_alloc_time_us", "host_free_time_us"}) {
        for (const char* part : {"total", "max", "count", "avg"})
            EXPECT_TRUE(pinned.at(timing).at(part).is_number()) << timing << "." << part;
    }
    EXPECT_DOUBLE_EQ(pinned.at("host_alloc_time_us").at("avg").get<double>(), 15.0);
    EXPECT_DOUBLE_EQ(pinned.at("host_free_time_us").at("avg").get<double>(), 0.0);  // no frees: not NaN
    EXPECT_EQ(pinned.at("budget_bytes"), 8ull << 30);
    EXPECT_EQ(pinned.at("locked"), true);
}

TEST(SummaryJson, UnlimitedMemlockAndNoErrorAreNull) {
    RunSummary summary = test::sample_summary();
    json j = round_trip(summary);
    EXPECT_TRUE(j.at("memlock_limit_bytes").is_null());
    EXPECT_TRUE(j.at("error").is_null());
    EXPECT_TRUE(j.at("warnings").empty());

    summary.memlock_limit_bytes = 8ull << 20;
    summary.error = "cudaHostAlloc failed: out of memory";
    summary.warnings = {"pinned memory not locked: RLIMIT_MEMLOCK"};
    j = round_trip(summary);
    EXPECT_EQ(j.at("memlock_limit_bytes"), 8ull << 20);
    EXPECT_EQ(j.at("error"), "cudaHostAlloc failed: out of memory");
    EXPECT_EQ(j.at("warnings"), json::array({"pinned memory not locked: RLIMIT_MEMLOCK"}));
}

TEST(FormatSummary, FitsOneScreenWithoutColourCodes) {
    const std::string text = format_summary(test::sample_summary());
    EXPECT_LT(lines(text).size(), 25u);
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_EQ(text.back(), '\n');
}

TEST(FormatSummary, ShowsDeviceConfigurationAndFigures) {
    const std::string text = format_summary(test::sample_summary());
    for (const char* expected :
         {"emulated", "h200-pcie5", "host modeled", "batch 8x3x32x32 f32", "workers 4", "prefetch 2",
          "pin_memory on (pool)", "non_blocking on", "batches/s", "0.8", "samples/s", "H2D GB/s", "49.40",
          "GPU busy", "80.0 %", "copy hidden", "50.0 %", "GPU starved", "12.0 % (copy 3.0 %, host 9.0 %)",
          "consumer wait", "10.0 %", "host held", "0.2 %",
          "pinned peak", "4.0 MiB", "2.0 MiB", "8.0 GiB", "memlock unlimited", "pinned locked", "yes",
          "cache hits", "allocations"})
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
}

TEST(FormatSummary, RowsAreAligned) {
    RunSummary summary = test::sample_summary();
    summary.dropped_spans = 3;
    const auto all = lines(format_summary(summary));
    // Values start where the device line's value does (labels may hold one space: "wall time").
    const std::size_t column = all.front().find_first_not_of(' ', all.front().find(' '));
    for (const auto& line : all) {
        EXPECT_EQ(line.substr(column - 2, 2), "  ") << line;
        EXPECT_NE(line[column], ' ') << line;
    }
}

TEST(FormatSummary, PinModeOnlyWhenPinned) {
    RunSummary summary = test::sample_summary();
    summary.config.pin_memory = false;
    summary.config.num_workers = 0;
    const std::string text = format_summary(summary);
    EXPECT_NE(text.find("pin_memory off"), std::string::npos) << text;
    EXPECT_EQ(text.find("pool"), std::string::npos) << text;
    EXPECT_EQ(text.find("prefetch"), std::string::npos) << text;
}

TEST(FormatSummary, ManyWarningsAndAnErrorStillFitOneScreen) {
    RunSummary summary = test::sample_summary();
    summary.dropped_spans = 12;
    summary.warnings.assign(40, "pinned budget reached");
    summary.warnings.front() = "a warning\nover two lines";
    summary.error = "copy failed";
    summary.memlock_limit_bytes = 64ull << 20;
    const std::string text = format_summary(summary);
    EXPECT_LT(lines(text).size(), 25u) << text;
    EXPECT_NE(text.find("warning: a warning over two lines"), std::string::npos) << text;
    EXPECT_NE(text.find("36 more warnings"), std::string::npos) << text;
    EXPECT_NE(text.find("error: copy failed"), std::string::npos) << text;
    EXPECT_NE(text.find("memlock 64.0 MiB"), std::string::npos) << text;
    EXPECT_NE(text.find("dropped spans"), std::string::npos) << text;
}

}  // namespace
}  // namespace pinscope
