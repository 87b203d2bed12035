// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bandwidth/TimerSweep.h"

#include "engine/export/ExportFormat.h"
#include "engine/metrics/Median.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pinscope {

namespace {

constexpr std::size_t kSampleTargetBytes = std::size_t{64} << 20;
constexpr int kMinRepeats = 4;
constexpr int kMaxRepeats = 100;

template <typename T>
bool has_duplicates(std::vector<T> values) {
    std::sort(values.begin(), values.end());
    return std::adjacent_find(values.begin(), values.end()) != values.end();
}

bool measures_plain_loop(CopyDirection direction, HostMemoryKind memory) {
    return direction == CopyDirection::H2D && memory == HostMemoryKind::Pinned;
}

// GB/s of one sample; a timer that reports no time has failed.
double sample_gb_per_s(CopyTimer& timer, CopyDirection direction, HostMemoryKind memory, std::size_t bytes,
                       int repeats, bool traced) {
    const double seconds = timer.time_copies(direction, memory, bytes, repeats, traced);
    if (!(seconds > 0) || !std::isfinite(seconds))
        throw DeviceError("timing " + std::to_string(repeats) + " " + to_string(direction) + " copies of " +
                          format_size(bytes) + " from " + to_string(memory) + " memory on " + timer.info().name +
                          " gave " + std::to_string(seconds) + " s");
    return static_cast<double>(bytes) * repeats / seconds / 1e9;
}

// What a point costs, roughly in proportion to its time: bytes moved plus a per-copy overhead.
double point_work(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int samples) {
    const double per_sample = (static_cast<double>(bytes) + 65536.0) * bandwidth_repeats(bytes);
    return per_sample * (samples + 1) * (measures_plain_loop(direction, memory) ? 2 : 1);
}

BandwidthPoint measure_point(CopyTimer& timer, CopyDirection direction, HostMemoryKind memory, std::size_t bytes,
                             int samples) {
    const int repeats = bandwidth_repeats(bytes);
    const bool plain = measures_plain_loop(direction, memory);
    // Warm-up: first-touch of buffers, lazy driver setup, clocks coming up.
    sample_gb_per_s(timer, direction, memory, bytes, repeats, true);
    if (plain) sample_gb_per_s(timer, direction, memory, bytes, repeats, false);

    std::vector<double> traced;
    std::vector<double> untraced;
    for (int i = 0; i < samples; ++i) {
        // Alternate which goes first, so that neither gains from drift in clocks or link state.
        const bool plain_first = plain && i % 2 == 1;
        if (plain_first) untraced.push_back(sample_gb_per_s(timer, direction, memory, bytes, repeats, false));
        traced.push_back(sample_gb_per_s(timer, direction, memory, bytes, repeats, true));
        if (plain && !plain_first) untraced.push_back(sample_gb_per_s(timer, direction, memory, bytes, repeats, false));
    }
    const auto [lowest, highest] = std::minmax_element(traced.begin(), traced.end());
    return BandwidthPoint{direction,      memory,  bytes, median(traced), *lowest, *highest, samples,
                          plain ? median(untraced) : 0.0};
}

}  // namespace

std::vector<ConfigIssue> find_bandwidth_issues(const BandwidthOptions& options) {
    std::vector<ConfigIssue> issues;
    const std::string largest = format_size(kMaxBandwidthBytes);
    if (options.min_bytes < 1 || options.min_bytes > kMaxBandwidthBytes)
        issues.push_back({"min_bytes", std::to_string(options.min_bytes), "a size from 1 byte to " + largest});
    if (options.max_bytes < options.min_bytes || options.max_bytes > kMaxBandwidthBytes)
        issues.push_back({"max_bytes", std::to_string(options.max_bytes),
                          "a size from min_bytes (" + std::to_string(options.min_bytes) + ") to " + largest});
    if (options.directions.empty() || has_duplicates(options.directions))
        issues.push_back({"directions", std::to_string(options.directions.size()) + " directions",
                          "h2d, d2h or both, each once"});
    if (options.memories.empty() || has_duplicates(options.memories))
        issues.push_back({"memories", std::to_string(options.memories.size()) + " kinds of memory",
                          "one or more of pinned, pageable and wc, each once"});
    if (options.samples < 1 || options.samples > kMaxBandwidthSamples)
        issues.push_back({"samples", std::to_string(options.samples),
                          "an integer from 1 to " + std::to_string(kMaxBandwidthSamples)});
    return issues;
}

std::vector<std::size_t> bandwidth_sizes(std::size_t min_bytes, std::size_t max_bytes) {
    std::vector<std::size_t> sizes;
    if (min_bytes == 0) return sizes;
    for (std::size_t size = min_bytes; size <= max_bytes; size *= 2) {
        sizes.push_back(size);
        if (size > max_bytes / 2) break;  // the next doubling would pass max (or overflow)
    }
    if (!sizes.empty() && sizes.back() != max_bytes) sizes.push_back(max_bytes);
    return sizes;
}

int bandwidth_repeats(std::size_t bytes) {
    if (bytes == 0) return kMaxRepeats;
    const std::size_t repeats = (kSampleTargetBytes + bytes - 1) / bytes;
    return static_cast<int>(std::clamp<std::size_t>(repeats, kMinRepeats, kMaxRepeats));
}

BandwidthResult sweep_copy_timer(CopyTimer& timer, const BandwidthOptions& options,
                                 const std::vector<std::size_t>& sizes, const BandwidthProgress& progress) {
    for (const ConfigIssue& issue : find_bandwidth_issues(options))
        if (issue.field != "min_bytes" && issue.field != "max_bytes") throw ConfigError(issue);

    BandwidthResult result;
    result.device = timer.info();
    // Asked after the copies, while the link is still trained up from them (an idle GPU's may
    // have dropped to Gen1).
    const auto with_link = [&timer](BandwidthResult& measured) {
        measured.link_name = timer.link_name();
        measured.link_gb_per_s = timer.link_gb_per_s();
        return std::move(measured);
    };

    double total = 0;
    for (const CopyDirection direction : options.directions)
        for (const HostMemoryKind memory : options.memories)
            for (const std::size_t bytes : sizes) total += point_work(direction, memory, bytes, options.samples);

    double done = 0;
    for (const CopyDirection direction : options.directions) {
        for (const HostMemoryKind memory : options.memories) {
            for (const std::size_t bytes : sizes) {
                result.points.push_back(measure_point(timer, direction, memory, bytes, options.samples));
                done += point_work(direction, memory, bytes, options.samples);
                if (progress && !progress(std::min(1.0, done / total), result.points.back())) return with_link(result);
            }
        }
    }
    return with_link(result);
}

}  // namespace pinscope
