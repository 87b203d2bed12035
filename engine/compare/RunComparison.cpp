// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compare/RunComparison.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/metrics/Median.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

// The value at quantile q of sorted values, by the nearest rank.
double nearest_rank(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

std::string device_text(const RunSummary& s) {
    return std::string(to_string(s.device.kind)) + " " + (s.device.kind == DeviceKind::Cuda ? s.device.name : s.device.profile);
}

std::vector<FigureComparison> figures_of(const RunSummary& a, const RunSummary& b) {
    const Metrics& x = a.metrics;
    const Metrics& y = b.metrics;
    const auto percent = [](double share) { return share * 100; };
    const auto mib = [](double bytes) { return bytes / static_cast<double>(kMiB); };
    return {
        {"batches/s", "", x.batches_per_s, y.batches_per_s},
        {"samples/s", "", x.samples_per_s, y.samples_per_s},
        {"H2D", "GB/s", x.h2d_gb_per_s, y.h2d_gb_per_s},
        {"GPU busy", "%", percent(x.gpu_busy), percent(y.gpu_busy)},
        {"copy hidden", "%", percent(x.copy_hidden), percent(y.copy_hidden)},
        {"GPU starved", "%", percent(x.gpu_starved), percent(y.gpu_starved)},
        {"  waiting on the copy", "%", percent(x.gpu_starved_copy), percent(y.gpu_starved_copy)},
        {"  waiting on the host", "%", percent(x.gpu_starved_host), percent(y.gpu_starved_host)},
        {"consumer wait", "%", percent(x.consumer_wait), percent(y.consumer_wait)},
        {"host held", "%", percent(x.host_held), percent(y.host_held)},
        {"batches", "", static_cast<double>(x.batches), static_cast<double>(y.batches)},
        {"wall time", "s", x.wall_s, y.wall_s},
        {"pinned peak", "MiB", mib(static_cast<double>(a.pinned.reserved_bytes.peak)),
         mib(static_cast<double>(b.pinned.reserved_bytes.peak))},
        {"pinned in use peak", "MiB", mib(static_cast<double>(a.pinned.allocated_bytes.peak)),
         mib(static_cast<double>(b.pinned.allocated_bytes.peak))},
        {"page-locked allocations", "", static_cast<double>(a.pinned.num_host_alloc),
         static_cast<double>(b.pinned.num_host_alloc)},
        {"reconfigurations", "", static_cast<double>(a.reconfigurations), static_cast<double>(b.reconfigurations)},
    };
}

}  // namespace

std::optional<double> FigureComparison::ratio() const {
    if (a == 0) return std::nullopt;
    return b / a;
}

std::vector<StageDurations> stage_durations(const std::vector<Span>& spans) {
    std::array<std::vector<double>, kStageCount> by_stage;
    for (const Span& span : spans)
        by_stage[static_cast<std::size_t>(span.stage)].push_back(static_cast<double>(span.duration()) / 1e3);
    std::vector<StageDurations> result;
    for (std::size_t i = 0; i < by_stage.size(); ++i) {
        std::vector<double>& us = by_stage[i];
        if (us.empty()) continue;
        std::sort(us.begin(), us.end());
        result.push_back({static_cast<Stage>(i), us.size(), median(us), nearest_rank(us, 0.95)});
    }
    return result;
}

RunComparison compare_runs(const RunRecord& a, const RunRecord& b) {
    RunComparison comparison;
    if (device_text(a.summary) != device_text(b.summary))
        comparison.differences.push_back("device: " + device_text(a.summary) + " -> " + device_text(b.summary));
    if (a.summary.host != b.summary.host)
        comparison.differences.push_back("host: " + to_string(a.summary.host) + " -> " + to_string(b.summary.host));
    for (std::string& line : describe_changes(a.summary.config, b.summary.config)) {
        if (line.starts_with("device:")) continue;  // said above, as the runs resolved it
        comparison.differences.push_back(std::move(line));
    }
    comparison.figures = figures_of(a.summary, b.summary);
    const std::vector<StageDurations> x = stage_durations(a.spans);
    const std::vector<StageDurations> y = stage_durations(b.spans);
    for (int i = 0; i < kStageCount; ++i) {
        const auto stage = static_cast<Stage>(i);
        const auto find = [&](const std::vector<StageDurations>& list) {
            const auto it = std::find_if(list.begin(), list.end(), [&](const StageDurations& d) { return d.stage == stage; });
            return it == list.end() ? StageDurations{stage, 0, 0, 0} : *it;
        };
        StageComparison row{stage, find(x), find(y)};
        if (row.a.count > 0 || row.b.count > 0) comparison.stages.push_back(row);
    }
    return comparison;
}

}  // namespace pinscope
