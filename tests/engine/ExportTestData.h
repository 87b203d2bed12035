// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small hand-made run for the exporter tests, and helpers to read their output back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/runner/RunRecord.h"
#include "tests/support/TempDir.h"

namespace pinscope::test {

// The message of the std::runtime_error that `action` throws; a test failure if it throws none.
inline std::string thrown_message(const std::function<void()>& action) {
    try {
        action();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    ADD_FAILURE() << "no std::runtime_error thrown";
    return {};
}

inline constexpr TimeNs kOrigin = 5'000'000'000;

inline TimeNs at_us(double us) { return kOrigin + std::llround(us * 1000.0); }

inline Span make_span(std::uint64_t batch, Stage stage, Lane lane, double start_us, double end_us,
                      std::uint64_t bytes = 0, std::int16_t cpu = -1, std::int16_t numa_node = -1) {
    Span span;
    span.batch = batch;
    span.stage = stage;
    span.lane = lane;
    span.start = at_us(start_us);
    span.end = at_us(end_us);
    span.bytes = bytes;
    span.cpu = cpu;
    span.numa_node = numa_node;
    return span;
}

// Spans on every lane kind, recorded out of time order, with a start-time tie between lanes.
inline std::vector<Span> sample_spans() {
    const Lane worker0{LaneKind::Worker, 0};
    const Lane worker1{LaneKind::Worker, 1};
    const Lane pin{LaneKind::PinThread, 0};
    const Lane consumer{LaneKind::Consumer, 0};
    const Lane copy{LaneKind::CopyStream, 0};
    const Lane compute{LaneKind::ComputeStream, 0};
    return {
        make_span(0, Stage::Compute, compute, 280.5, 2280.5),
        make_span(0, Stage::H2D, copy, 260.25, 280.5, 1'000'000),
        make_span(0, Stage::Wait, consumer, 0, 255.125, 0, 1, 0),
        make_span(0, Stage::Load, worker0, 0, 100, 0, 2, 0),
        make_span(1, Stage::Load, worker1, 10, 120.001, 0, 9, 1),
        make_span(0, Stage::Collate, worker0, 100, 150, 1'000'000, 2, 0),
        make_span(1, Stage::Collate, worker1, 120.001, 170, 1'000'000, 9, 1),
        make_span(0, Stage::Pin, pin, 150, 250, 1'000'000, 5, 0),
        make_span(1, Stage::Pin, pin, 250, 330, 1'000'000, 5, 0),
        make_span(0, Stage::Staging, consumer, 255.125, 260.25, 0, 1, 0),
        make_span(1, Stage::H2D, copy, 2280.5, 2280.5, 1'000'000),  // zero length: no rate
    };
}

inline std::vector<CounterSample> sample_counters() {
    return {
        {at_us(0), 2, Counter::InFlightBatches},
        {at_us(150), 1'048'576, Counter::PinnedInUseBytes},
        {at_us(150), 1'048'576, Counter::PinnedReservedBytes},
        {at_us(150), 3, Counter::InFlightBatches},
        {at_us(250), 1, Counter::ReadyQueueDepth},
        {at_us(300), 48.75, Counter::H2DGbPerS},
        {at_us(250), 2'097'152, Counter::PinnedInUseBytes},  // recorded late
    };
}

inline RunSummary sample_summary() {
    RunSummary summary;
    summary.config.batch_size = 8;
    summary.config.sample_shape = {3, 32, 32};
    summary.device = {DeviceKind::Emulated, "NVIDIA H200 (modelled)", "h200-pcie5", "PCIe Gen5 x16"};
    summary.host = HostMode::Modeled;
    summary.metrics.wall_s = 2.5;
    summary.metrics.batches = 2;
    summary.metrics.samples = 16;
    summary.metrics.batches_per_s = 0.8;
    summary.metrics.samples_per_s = 6.4;
    summary.metrics.h2d_bytes = 2e6;
    summary.metrics.h2d_gb_per_s = 49.4;
    summary.metrics.gpu_busy = 0.8;
    summary.metrics.copy_hidden = 0.5;
    summary.metrics.gpu_starved = 0.12;
    summary.metrics.gpu_starved_copy = 0.03;
    summary.metrics.gpu_starved_host = 0.09;
    summary.metrics.consumer_wait = 0.1;
    summary.metrics.host_held = 0.002;
    summary.pinned.reserved_bytes = {2'097'152, 4'194'304, 4'194'304, 2'097'152};
    summary.pinned.allocated_bytes = {1'048'576, 2'097'152, 3'145'728, 2'097'152};
    summary.pinned.allocation = {1, 2, 3, 2};
    summary.pinned.segment = {2, 2, 2, 0};
    summary.pinned.num_host_alloc = 2;
    summary.pinned.host_alloc_time = {30.0, 20.0, 2};
    summary.pinned.cache_hits = 1;
    summary.pinned.budget_bytes = 8ull << 30;
    summary.memlock_limit_bytes = std::numeric_limits<std::uint64_t>::max();
    summary.reconfigurations = 1;
    return summary;
}

inline RunRecord sample_record() {
    RunRecord record;
    record.summary = sample_summary();
    record.origin = kOrigin;
    record.spans = sample_spans();
    record.counters = sample_counters();
    record.markers = {{at_us(1000), MarkerKind::Reconfigured, "reconfigured: pin_memory off -> on"}};
    return record;
}

inline std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator)) parts.push_back(part);
    if (!text.empty() && text.back() == separator) parts.emplace_back();
    return parts;
}

// CSV text as rows of fields (the exporters never quote).
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) rows.push_back(split(line, ','));
    return rows;
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::set<std::string> file_names(const std::filesystem::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename().string());
    return names;
}


}  // namespace pinscope::test
