// SPDX-License-Identifier: GPL-3.0-or-later
// calibrate_profile with a fake probe: every field filled from what was measured, a profile that
// load_profile accepts and that drives the emulated device; the default name; open_calibration_probe
// without a GPU.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/BuildConfig.h"
#include "engine/bandwidth/TimerSweep.h"
#include "engine/calibrate/Calibration.h"
#include "engine/device/factory/CalibrationProbeFactory.h"
#include "engine/export/ExportFormat.h"
#include "engine/host/HostMeasurement.h"
#include "engine/text/Units.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

// Copy rates that rise with size to a plateau, as PCIe copies do: peak * bytes / (bytes + half).
class FakeCopyTimer final : public CopyTimer {
public:
    DeviceInfo info() const override { return {DeviceKind::Cuda, "NVIDIA H100 80GB HBM3", "", "0000:19:00.0, PCIe Gen5 x16"}; }
    std::string link_name() const override { return link_known ? "PCIe Gen5 x16" : ""; }
    double link_gb_per_s() const override { return link_known ? 63.0 : 0; }
    double time_copies(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int repeats,
                       bool) override {
        ++calls;
        const double size = static_cast<double>(bytes);
        return size * repeats / (rate(direction, memory, size) * 1e9);
    }

    static double rate(CopyDirection direction, HostMemoryKind memory, double bytes) {
        const double peak = memory == HostMemoryKind::Pageable ? 20.0
                            : memory == HostMemoryKind::WriteCombined && direction == CopyDirection::D2H ? 3.0
                                                                                                          : 55.0;
        return peak * bytes / (bytes + 256 * 1024.0);
    }

    bool link_known = true;
    int calls = 0;
};

class FakeProbe final : public CalibrationProbe {
public:
    DeviceInfo info() const override { return timer.info(); }
    CopyTimer& copy_timer() override { return timer; }
    double pageable_hold_fraction(std::size_t bytes) override {
        hold_bytes = bytes;
        return hold;
    }
    bool pageable_overlaps_compute(std::size_t) override { return false; }
    double copy_call_us() override { return 4.5; }
    double device_read_gb_per_s(std::size_t) override { return 2900; }
    PinCosts host_alloc_free_us(std::size_t bytes) override {
        const double mib = static_cast<double>(bytes) / kMiB;
        const double scale = batch_scale(bytes, alloc_scales, alloc_calls);
        return {(20 + mib * 260) * scale, (10 + mib * 70) * scale};
    }
    PinCosts host_register_unregister_us(std::size_t bytes) override {
        const double mib = static_cast<double>(bytes) / kMiB;
        const double scale = batch_scale(bytes, register_scales, register_calls);
        return {(15 + mib * 115) * scale, (8 + mib * 60) * scale};
    }
    PageLockingWaits page_locking_waits() override { return waits; }
    DriverLock driver_lock(const PageLockingWaits& measured) override {
        lock_asked_with = measured;
        return lock;
    }
    double unmap_waits_for_host_register() override { return 0.48; }
    // The cost of the k-th call at the calibration's batch size times scales[k] (the last repeated).
    static double batch_scale(std::size_t bytes, const std::vector<double>& scales, std::size_t& calls) {
        if (bytes != kCalibrationBatchBytes || scales.empty()) return 1.0;
        return scales[std::min(calls++, scales.size() - 1)];
    }
    double memcpy_to_pinned_gb_per_s(std::size_t, BatchState batch) override {
        if (batch == BatchState::InMemory) return 7.1;
        const std::size_t k = just_collated_calls++;
        return just_collated_rates.empty() ? 14.2 : just_collated_rates[std::min(k, just_collated_rates.size() - 1)];
    }
    double pageable_h2d_gb_per_s(std::size_t bytes, BatchState) override {
        if (bytes != kCalibrationBatchBytes) {
            const bool alone = ++pageable_calls_at[bytes] % 2 == 1;
            if (bytes < kCalibrationBatchBytes) return alone ? 12.0 : 4.0;  // 12 GB/s alone, 4 with one other
            return alone ? 6.0 : 3.0;                                       // 6 GB/s alone, 3 with one other
        }
        ++pageable_calls;
        return pageable_rates.empty() ? 18.0 : pageable_rates[std::min(pageable_calls - 1, pageable_rates.size() - 1)];
    }

    FakeCopyTimer timer;
    double hold = 0.97;
    std::size_t hold_bytes = 0;
    std::vector<double> pageable_rates;  // one per call, the last repeated; empty: 18 GB/s
    std::vector<double> just_collated_rates;  // a pin of a batch just collated, one per call as above; empty: 14.2
    std::size_t just_collated_calls = 0;
    std::size_t pageable_calls = 0;
    std::map<std::size_t, std::size_t> pageable_calls_at;  // by size, but calibrate's batch's
    std::vector<double> alloc_scales, register_scales;  // batch_scale's
    std::size_t alloc_calls = 0, register_calls = 0;
    PageLockingWaits waits{.free_host = true, .host_unregister = true};
    DriverLock lock{.during_host_alloc = {.host_alloc = true, .copies = true},
                    .during_free_host = {.free_host = true},
                    .during_host_register = {},
                    .during_host_unregister = {.copies = true, .launches = true},
                    .while_free_waits = {.launches = true},
                    .while_unregister_waits = {.host_alloc = true, .launches = true}};
    PageLockingWaits lock_asked_with;
};

CalibrationOptions test_options() {
    CalibrationOptions options;
    options.command = "pinscope-cli calibrate --device cuda:0 --quick";
    options.quick = true;
    options.memcpy_bytes = 4 << 20;  // small: the test needs a rate, not a good one
    options.when = std::chrono::system_clock::time_point(std::chrono::seconds(1795000000));  // 2026-11-18 11:06:40 UTC
    return options;
}

TEST(Calibration, FillsEveryFieldFromTheProbe) {
    FakeProbe probe;
    std::vector<double> fractions;
    const HardwareProfile profile =
        calibrate_profile(probe, test_options(), [&](const std::string&, double f) { fractions.push_back(f); });

    EXPECT_EQ(profile.name, "h100-pcie5");
    EXPECT_EQ(profile.link_name, "PCIe Gen5 x16");
    EXPECT_DOUBLE_EQ(profile.link_gb_per_s, 63.0);
    EXPECT_EQ(profile.description.rfind("NVIDIA H100 80GB HBM3, PCIe Gen5 x16, ", 0), 0u) << profile.description;

    // Quick: 64 KiB to 1 GiB every 4x.
    const std::vector<double> sizes{65536, 262144, 1048576, 4194304, 16777216, 67108864, 268435456, 1073741824};
    EXPECT_EQ(profile.h2d_pinned_gb_per_s.sizes_bytes, sizes);
    for (const double size : sizes) {
        EXPECT_NEAR(profile.h2d_pinned_gb_per_s.at(size), FakeCopyTimer::rate(CopyDirection::H2D, HostMemoryKind::Pinned, size), 1e-9);
        EXPECT_NEAR(profile.h2d_pageable_gb_per_s.at(size), FakeCopyTimer::rate(CopyDirection::H2D, HostMemoryKind::Pageable, size), 1e-9);
        EXPECT_NEAR(profile.d2h_pageable_gb_per_s.at(size), FakeCopyTimer::rate(CopyDirection::D2H, HostMemoryKind::Pageable, size), 1e-9);
        EXPECT_NEAR(profile.d2h_write_combined_gb_per_s.at(size), FakeCopyTimer::rate(CopyDirection::D2H, HostMemoryKind::WriteCombined, size), 1e-9);
    }
    EXPECT_DOUBLE_EQ(profile.pageable_hold_fraction, 0.97);
    EXPECT_EQ(probe.hold_bytes, 16u << 20);
    EXPECT_FALSE(profile.pageable_overlaps_compute);
    EXPECT_DOUBLE_EQ(profile.copy_call_us, 4.5);
    EXPECT_DOUBLE_EQ(profile.device_read_gb_per_s, 2900);
    EXPECT_DOUBLE_EQ(profile.memcpy_to_pinned_gb_per_s, 14.2);
    EXPECT_EQ(profile.host_cores, count_host_cores().cores);
    EXPECT_GT(profile.memcpy_gb_per_s, 0);
    const MemoryThroughputCurve& all_threads = profile.under_load.all_threads;
    EXPECT_EQ(all_threads.threads.front(), 1);
    EXPECT_EQ(all_threads.threads.back(), count_host_cores().threads);
    for (const double rate : all_threads.copy_gb_per_s) EXPECT_GT(rate, 0);
    for (const double rate : all_threads.fill_gb_per_s) EXPECT_GT(rate, 0);
    ASSERT_EQ(profile.host_alloc_us.sizes_bytes.size(), 9u);
    EXPECT_DOUBLE_EQ(profile.host_alloc_us.at(kCalibrationBatchBytes),
                     20 + static_cast<double>(kCalibrationBatchBytes) / kMiB * 260);
    EXPECT_DOUBLE_EQ(profile.free_host_us.at(kMiB), 80);
    EXPECT_DOUBLE_EQ(profile.host_register_us.at(128 * kMiB), 15 + 128 * 115);
    EXPECT_DOUBLE_EQ(profile.host_unregister_us.at(16 * kMiB), 8 + 16 * 60);
    // Quick: a worker's rates at 1 MiB and 8 MiB against calibrate's batch, where each factor is 1.
    const HostSizeFactors& by_size = profile.by_batch_size;
    EXPECT_EQ(by_size.sizes_bytes, (std::vector<double>{kMiB, 8 * kMiB, kCalibrationBatchBytes}));
    EXPECT_DOUBLE_EQ(by_size.collate.back(), 1.0);
    EXPECT_DOUBLE_EQ(by_size.pin.back(), 1.0);
    for (const double factor : by_size.pin) EXPECT_GT(factor, 0);
    EXPECT_EQ(profile.waits_for_device, probe.waits);
    // Which calls wait for another thread's, asked knowing whether a free waits at all.
    EXPECT_EQ(probe.lock_asked_with, probe.waits);
    EXPECT_EQ(profile.driver_lock, probe.lock);
    EXPECT_EQ(profile_from_json(to_json(profile)).driver_lock, probe.lock);
    EXPECT_DOUBLE_EQ(profile.unmap_waits_for_host_register, 0.48);
    EXPECT_DOUBLE_EQ(profile_from_json(to_json(profile)).unmap_waits_for_host_register, 0.48);

    for (const char* part : {"pinscope-cli calibrate --device cuda:0 --quick", "NVIDIA H100 80GB HBM3",
                             "wait for the GPU to finish the work queued before them (cudaFreeHost, cudaHostUnregister did",
                             "inside a cudaHostAlloc of 512 MiB (cudaHostAlloc and cudaMemcpyAsync did), a cudaFreeHost of 512 MiB (cudaFreeHost did)",
                             "a cudaHostRegister of 512 MiB (none did), a cudaHostUnregister of 512 MiB (cudaMemcpyAsync and a kernel launch did)",
                             "a cudaFreeHost waiting for a 50 ms kernel (a kernel launch did), a cudaHostUnregister waiting for a 50 ms kernel (cudaHostAlloc and a kernel launch did)",
                             "made 2 ms into it, waits for (until 0.48 of the call had passed",
                             "0000:19:00.0", "2026-11-18 11:06 UTC", "Measured:", "8 sizes", "median of 3",
                             "hwloc", "theoretical rate", "What the machine's memory gives every thread together: the bytes per second that 1"})
        EXPECT_NE(profile.source.find(part), std::string::npos) << part << " not in: " << profile.source;

    ASSERT_FALSE(fractions.empty());
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    EXPECT_EQ(probe.timer.calls, 2 * 3 * 8 * (3 + 1) + 8 * (3 + 1));  // + the plain loop of H2D pinned
}

TEST(Calibration, MeasuresRatesUnderLoadAsFactorsOfTheIdleOnes) {
    FakeProbe probe;
    // A fresh batch copies at 9 GB/s with nothing else running, 4.5 with one other thread streaming:
    // the medians of three rounds that visit 0 and 1 in turn, one round off each time.
    probe.pageable_rates = {9.0, 4.5, 12.0, 4.5, 9.0, 3.0};
    CalibrationOptions options = test_options();
    options.load_threads = {0, 1};
    const HardwareProfile profile = calibrate_profile(probe, options, nullptr);
    const HostLoadCurve& curve = profile.under_load;
    EXPECT_EQ(curve.others, (std::vector<double>{0, 1}));
    const double sweep = profile.h2d_pageable_gb_per_s.at(kCalibrationBatchBytes);
    EXPECT_EQ(probe.pageable_calls, 6u);
    EXPECT_EQ(curve.pageable_h2d, (std::vector<double>{9.0 / sweep, 4.5 / sweep}));
    // And at five more sizes, each against the sweep at its own size: a batch far beyond the caches,
    EXPECT_EQ(probe.pageable_calls_at, (std::map<std::size_t, std::size_t>{
                                           {2 << 20, 6}, {8 << 20, 6}, {16 << 20, 6}, {96 << 20, 6}, {256 << 20, 6}}));
    const auto factors_at = [&](double bytes, double alone, double loaded) {
        const double at_size = profile.h2d_pageable_gb_per_s.at(bytes);
        return PageableFactorsAtSize{bytes, {alone / at_size, loaded / at_size}};
    };
    // a small batch, three between, and a batch far beyond the caches, ascending.
    ASSERT_EQ(curve.pageable_h2d_by_size.size(), 5u);
    EXPECT_EQ(curve.pageable_h2d_by_size[0], factors_at(2 << 20, 12.0, 4.0));
    EXPECT_EQ(curve.pageable_h2d_by_size[1].bytes, 8 << 20);
    EXPECT_EQ(curve.pageable_h2d_by_size[2], factors_at(16 << 20, 12.0, 4.0));
    EXPECT_EQ(curve.pageable_h2d_by_size[3], factors_at(96 << 20, 6.0, 3.0));
    EXPECT_EQ(curve.pageable_h2d_by_size[4], factors_at(256 << 20, 6.0, 3.0));
    EXPECT_EQ(profile_from_json(to_json(profile)).under_load.pageable_h2d_by_size, curve.pageable_h2d_by_size);
    EXPECT_EQ(curve.memcpy_to_pinned, (std::vector<double>{0.5, 0.5}));  // the fake pins from memory at half speed
    for (const auto* factors : {&curve.fill, &curve.first_touch}) {
        ASSERT_EQ(factors->size(), 2u);
        EXPECT_DOUBLE_EQ((*factors)[0], 1.0);
        EXPECT_GT((*factors)[1], 0.0);  // measured on this machine: how much it slows is its own
    }
    ASSERT_EQ(curve.free_pageable.size(), 2u);
    EXPECT_DOUBLE_EQ(curve.free_pageable[0], 1.0);  // against the same free with none busy
    EXPECT_GT(curve.free_pageable[1], 0.0);
    EXPECT_GT(profile.fill_gb_per_s, 0.0);
    // Frees are timed at the batch loops' sizes.
    EXPECT_EQ(profile.free_pageable_us.sizes_bytes, profile.by_batch_size.sizes_bytes);
    EXPECT_EQ(profile.free_new_pages_us.sizes_bytes, profile.by_batch_size.sizes_bytes);
    EXPECT_NE(profile.source.find("while 0 and 1 other threads"), std::string::npos) << profile.source;
    EXPECT_NE(profile.source.find("median of 3 rounds that visit the thread counts in turn"), std::string::npos) << profile.source;
}

// The host's idle rates move from minute to minute on a VM: calibrate reads them at moments spread
// over its run (before and after the copy sweep, in each of three rounds, after the threads streaming
// together, at the end) and keeps the median, where the under-load factors stay against their own
// rounds' idle readings.
TEST(Calibration, IdleRatesAreTheMedianOfReadingsSpreadOverTheCalibration) {
    FakeProbe probe;
    probe.just_collated_rates = {20.0, 19.0, 10.0, 11.0, 12.0, 18.0, 17.0};  // in the order calibrate reads them
    CalibrationOptions options = test_options();
    options.load_threads = {0, 1};
    const HardwareProfile profile = calibrate_profile(probe, options, nullptr);
    EXPECT_EQ(probe.just_collated_calls, 7u);
    EXPECT_DOUBLE_EQ(profile.memcpy_to_pinned_gb_per_s, 17.0) << "the median of all seven, not the rounds' 11";
    EXPECT_EQ(profile.under_load.memcpy_to_pinned, (std::vector<double>{7.1 / 11.0, 7.1 / 11.0}));
    for (const char* part : {"the median of 7 readings spread over the calibration", "pinning 10.00 to 20.00 GB/s"})
        EXPECT_NE(profile.source.find(part), std::string::npos) << part << " not in: " << profile.source;
    // Each reading with its moment, in the order read, so that a dip after one step shows.
    const std::vector<std::pair<std::string, std::string>> readings{
        {"before the copy sweep", "20.00"}, {"after the copy sweep", "19.00"},
        {"in round 1 of the host's rates", "10.00"}, {"in round 2 of the host's rates", "11.00"},
        {"in round 3 of the host's rates", "12.00"}, {"after the threads streaming together", "18.00"},
        {"at the end", "17.00"}};
    const std::string list_start = "In the order read (filling, collating, pinning, GB/s): ";
    std::size_t at = profile.source.find(list_start);
    ASSERT_NE(at, std::string::npos) << profile.source;
    at += list_start.size();
    for (std::size_t i = 0; i < readings.size(); ++i) {
        const std::string ends = i + 1 < readings.size() ? "; " : ". ";
        const std::size_t end = profile.source.find(ends, at);
        ASSERT_NE(end, std::string::npos) << profile.source;
        const std::string reading = profile.source.substr(at, end - at);
        EXPECT_EQ(reading.rfind(readings[i].first + " ", 0), 0u) << reading;
        EXPECT_EQ(reading.substr(reading.size() - readings[i].second.size()), readings[i].second) << reading;
        at = end + ends.size();
    }
}

TEST(Calibration, MeasuresPageLockingUnderLoadAsCostFactors) {
    FakeProbe probe;
    // The cost curve's three rounds' calls at the batch size, then three rounds over 0 and 1 other
    // threads: with one other streaming, cudaHostAlloc and cudaFreeHost cost 3 times as much,
    // register twice.
    probe.alloc_scales = {1, 1, 1, 1, 3, 1, 3, 1, 3};
    probe.register_scales = {1, 1, 1, 1, 2, 1, 2, 1, 2};
    CalibrationOptions options = test_options();
    options.load_threads = {0, 1};
    const HardwareProfile profile = calibrate_profile(probe, options, nullptr);
    EXPECT_EQ(probe.alloc_calls, 9u);
    EXPECT_EQ(profile.under_load.host_alloc, (std::vector<double>{1.0, 3.0}));
    EXPECT_EQ(profile.under_load.host_register, (std::vector<double>{1.0, 2.0}));
    EXPECT_NE(profile.source.find("cudaHostAlloc with cudaFreeHost and its cudaHostRegister with cudaHostUnregister cost"),
              std::string::npos)
        << profile.source;
    // They load back as written.
    EXPECT_EQ(profile_from_json(to_json(profile)).under_load.host_alloc, profile.under_load.host_alloc);
}

// A worker's batch is freed by another thread than the one that wrote it: an munmap, which takes
// time, every buffer given back (the sanitizer builds check that), whatever this machine's figures are.
TEST(Calibration, TimesFreesOfWorkersBatchesHandedOverByAnotherThread) {
    const double us = measure_handed_over_free_us(std::size_t{4} << 20, 3);
    EXPECT_GT(us, 0.0);
    EXPECT_LT(us, 1e6);
}

TEST(Calibration, LoadsUpToEveryCoreButTwo) {
    EXPECT_EQ(load_thread_counts(2), (std::vector<int>{0}));
    EXPECT_EQ(load_thread_counts(4), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(load_thread_counts(16), (std::vector<int>{0, 1, 2, 4, 8, 14}));
    EXPECT_EQ(load_thread_counts(10), (std::vector<int>{0, 1, 2, 4, 8}));
}

TEST(Calibration, FullRunMeasuresEveryDoubling) {
    FakeProbe probe;
    CalibrationOptions options = test_options();
    options.quick = false;
    options.name = "my-gpu";
    options.batch_loop_sizes = {std::size_t{1} << 20};  // the test needs the factors, not good ones
    const HardwareProfile profile = calibrate_profile(probe, options, nullptr);
    EXPECT_EQ(profile.name, "my-gpu");
    EXPECT_EQ(profile.d2h_pinned_gb_per_s.sizes_bytes.size(), 15u);  // 64 KiB .. 1 GiB
    EXPECT_NE(profile.source.find("median of 5"), std::string::npos);
}

class CalibratedProfileFile : public ::testing::Test {
protected:
    test::TempDir scratch_;
    const std::filesystem::path dir_ = scratch_.path();
};

TEST_F(CalibratedProfileFile, LoadsBackAndDrivesTheEmulatedDevice) {
    FakeProbe probe;
    const HardwareProfile profile = calibrate_profile(probe, test_options(), nullptr);
    const std::string path = dir_ / "h100-pcie5.json";
    std::ofstream(path) << json_text(to_json(profile), 2);

    const HardwareProfile loaded = load_profile(path);
    EXPECT_EQ(to_json(loaded), to_json(profile));
    EXPECT_EQ(loaded.d2h_write_combined_gb_per_s.values, profile.d2h_write_combined_gb_per_s.values);

    LoaderConfig config = test::small_config(2, true, 40);
    config.device = "emulated:" + path;
    const RunRecord record = test::run_to_end(config);
    EXPECT_EQ(record.summary.error, "");
    EXPECT_EQ(record.summary.device.kind, DeviceKind::Emulated);
    EXPECT_EQ(record.summary.device.profile, "h100-pcie5");
    EXPECT_EQ(record.summary.metrics.batches, 40u);
    // The copies ran at the calibrated rate for their size: 48 KiB batches, pinned.
    const double expected_gb_per_s = loaded.h2d_pinned_gb_per_s.at(4 * 3 * 32 * 32 * 4);
    int copies = 0;
    for (const Span& span : record.spans) {
        if (span.stage != Stage::H2D) continue;
        ++copies;
        EXPECT_NEAR(*span_gb_per_s(span), expected_gb_per_s, 0.02 * expected_gb_per_s);
    }
    EXPECT_EQ(copies, 40);
}

TEST(Calibration, UnknownLinkTakesTheFastestCopyAndSaysSo) {
    FakeProbe probe;
    probe.timer.link_known = false;
    const HardwareProfile profile = calibrate_profile(probe, test_options(), nullptr);
    EXPECT_EQ(profile.link_name, "unknown link");
    EXPECT_EQ(profile.name, "h100");
    EXPECT_NEAR(profile.link_gb_per_s, FakeCopyTimer::rate(CopyDirection::H2D, HostMemoryKind::Pinned, 1 << 30), 1e-9);
    EXPECT_NE(profile.source.find("Assumed: the link's limit is the fastest copy measured"), std::string::npos);
}

TEST(Calibration, HoldBeyondTheCopyIsCappedAndSaid) {
    FakeProbe probe;
    probe.hold = 1.08;
    const HardwareProfile profile = calibrate_profile(probe, test_options(), nullptr);
    EXPECT_DOUBLE_EQ(profile.pageable_hold_fraction, 1.0);
    EXPECT_NE(profile.source.find("(1.08 of the copy, recorded as 1)"), std::string::npos) << profile.source;
}

TEST(Calibration, SourceTextGivesSizesExactly) {
    FakeProbe probe;
    const HardwareProfile profile = calibrate_profile(probe, test_options(), nullptr);
    for (const char* part : {"how long a pageable 16 MiB copy", "at 1 MiB, 1114112 bytes, 1572864 bytes, 2 MiB, 4 MiB, 8 MiB, 16 MiB, 38535168 bytes and 128 MiB (median of 3 rounds",
                             "cudaHostAlloc and cudaFreeHost (with blocks held, as pin_mode alloc holds batches waiting for their copies)",
                             "from 1 MiB to 38535168 bytes (3 sizes), against 38535168 bytes",
                             "pageable to pageable (4 MiB buffers"})
        EXPECT_NE(profile.source.find(part), std::string::npos) << part << " not in: " << profile.source;
    EXPECT_EQ(format_size(64 << 10), "64 KiB");
    EXPECT_EQ(format_size(std::uint64_t{1} << 30), "1 GiB");
    EXPECT_EQ(format_size(std::uint64_t{1200} << 20), "1200 MiB");
    EXPECT_EQ(format_size(1000), "1000 bytes");
    // What people read in summaries and messages: a tenth of the largest unit reached.
    EXPECT_EQ(format_size_rounded(38535168), "36.8 MiB");
    EXPECT_EQ(format_size_rounded(std::uint64_t{2} << 30), "2 GiB");
    EXPECT_EQ(format_size_rounded(512), "0.5 KiB");
}

TEST(Calibration, AnInvalidMeasurementNamesTheField) {
    FakeProbe probe;
    probe.hold = -0.5;
    try {
        calibrate_profile(probe, test_options(), nullptr);
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("profile.copy.pageable_hold_fraction"), std::string::npos)
            << error.what();
    }
}

TEST(Calibration, DefaultNames) {
    EXPECT_EQ(default_profile_name("NVIDIA H100 80GB HBM3", "PCIe Gen5 x16"), "h100-pcie5");
    EXPECT_EQ(default_profile_name("NVIDIA H200", "PCIe Gen5 x16"), "h200-pcie5");
    EXPECT_EQ(default_profile_name("NVIDIA A100-SXM4-80GB", "PCIe Gen4 x16"), "a100-pcie4");
    EXPECT_EQ(default_profile_name("NVIDIA GeForce RTX 4090", ""), "rtx-4090");
    EXPECT_EQ(default_profile_name("NVIDIA RTX A6000", "PCIe Gen4 x8"), "rtx-a6000-pcie4");
    EXPECT_EQ(default_profile_name("Tesla V100-PCIE-16GB", "PCIe Gen3 x16"), "v100-pcie3");
    EXPECT_EQ(default_profile_name("", "unknown link"), "gpu");
}

TEST(Calibration, NeedsARealGpu) {
    for (const char* device : {"emulated", "emulated:h200-pcie5"}) {
        try {
            open_calibration_probe(device);
            ADD_FAILURE() << device << ": no error";
        } catch (const DeviceError& error) {
            EXPECT_NE(std::string(error.what()).find("calibrate needs a real NVIDIA GPU"), std::string::npos)
                << error.what();
            EXPECT_NE(std::string(error.what()).find("emulated device"), std::string::npos) << error.what();
        }
    }
    EXPECT_THROW(open_calibration_probe("gpu"), ConfigError);
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has CUDA";
    for (const char* device : {"cuda", "cuda:1", "auto"}) {
        try {
            open_calibration_probe(device);
            ADD_FAILURE() << device << ": no error";
        } catch (const DeviceError& error) {
            EXPECT_NE(std::string(error.what()).find("no CUDA support"), std::string::npos) << error.what();
        }
    }
}

TEST(HostMeasurement, CoresAndMemcpy) {
    const HostCores cores = count_host_cores();
    EXPECT_GE(cores.cores, 1);
    EXPECT_GE(cores.threads, cores.cores);
    EXPECT_FALSE(cores.counted_by.empty());
    EXPECT_GE(memcpy_buffer_bytes(), 256u << 20);
    EXPECT_GE(memcpy_buffer_bytes(), 4 * largest_cache_bytes());
    const double rate = measure_memcpy_gb_per_s(1 << 20, 3);
    EXPECT_GT(rate, 0.05);  // even under a sanitizer
    EXPECT_LT(rate, 10000);
}

// Calibrate's pin and pageable copies (on the GPU) and validate's reading of the pin copy (here)
// time the same thing: a read of a batch collated a moment before, one untimed and then the samples.
TEST(HostMeasurement, ReadsOfCollatedBatchesSeeEachBatchWhole) {
    const std::size_t bytes = 1 << 20;
    int reads = 0;
    bool whole = true;
    const double rate = rate_over_collated_batches(bytes, BatchState::JustCollated, 3, [&](const std::byte* batch) {
        ++reads;
        // The samples' bytes (0x5A) throughout, not the zeros of pages never written.
        whole = whole && batch[0] == std::byte{0x5A} && batch[bytes / 2] == std::byte{0x5A} &&
                batch[bytes - 1] == std::byte{0x5A};
    });
    EXPECT_EQ(reads, 4) << "one untimed, then three";
    EXPECT_TRUE(whole);
    EXPECT_GT(rate, 0);
    const double pin = measure_pin_copy_gb_per_s(bytes, 3);
    EXPECT_GT(pin, 0.05);  // even under a sanitizer
    EXPECT_LT(pin, 10000);
}

}  // namespace
}  // namespace pinscope
