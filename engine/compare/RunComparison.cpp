// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compare/RunComparison.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/metrics/Median.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

// The value at quantile q of sorted values, by the nearest rank.
double nearest_rank(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// The CLI's decimals, kept for the window: percentages to 0.1, rates and seconds to 0.01, counts whole.
int decimals_for(const FigureComparison& figure) {
    if (figure.unit == "%") return 1;
    if (figure.unit == "GB/s" || figure.unit == "s") return 2;
    return figure.name == "batches" || figure.name == "reconfigurations" || figure.name == "page-locked allocations" ? 0 : 1;
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

void StageDurationSamples::add(const std::vector<Span>& spans) {
    for (const Span& span : spans) add(span.stage, span.duration());
}

void StageDurationSamples::add(Stage stage, TimeNs duration) {
    const auto index = static_cast<std::size_t>(stage);
    if (index >= us_.size()) return;  // a stage this build does not know (a damaged recording is refused earlier)
    us_[index].push_back(static_cast<double>(duration) / 1e3);
    sorted_ = false;
}

void StageDurationSamples::clear() {
    for (std::vector<double>& us : us_) us.clear();
    sorted_ = true;
}

std::size_t StageDurationSamples::size() const {
    std::size_t n = 0;
    for (const std::vector<double>& us : us_) n += us.size();
    return n;
}

std::vector<StageDurations> StageDurationSamples::durations() {
    if (!sorted_)
        for (std::vector<double>& us : us_) std::sort(us.begin(), us.end());
    sorted_ = true;
    std::vector<StageDurations> result;
    for (std::size_t i = 0; i < us_.size(); ++i) {
        const std::vector<double>& us = us_[i];
        if (us.empty()) continue;
        result.push_back({static_cast<Stage>(i), us.size(), median(us), nearest_rank(us, 0.95)});
    }
    return result;
}

std::vector<StageDurations> stage_durations(const std::vector<Span>& spans) {
    StageDurationSamples samples;
    samples.add(spans);
    return samples.durations();
}

RunComparison compare_runs(const RunRecord& a, const RunRecord& b) {
    return compare_runs(a.summary, b.summary, stage_durations(a.spans), stage_durations(b.spans));
}

RunComparison compare_runs(const RunSummary& a, const RunSummary& b, const std::vector<StageDurations>& x,
                           const std::vector<StageDurations>& y) {
    RunComparison comparison;
    if (device_text(a) != device_text(b))
        comparison.differences.push_back("device: " + device_text(a) + " -> " + device_text(b));
    if (a.host != b.host) comparison.differences.push_back("host: " + to_string(a.host) + " -> " + to_string(b.host));
    for (std::string& line : describe_changes(a.config, b.config)) {
        if (line.starts_with("device:")) continue;  // said above, as the runs resolved it
        comparison.differences.push_back(std::move(line));
    }
    comparison.figures = figures_of(a, b);
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

std::string figure_text(const FigureComparison& figure, double value) {
    return format_fixed(value, decimals_for(figure)) + (figure.unit.empty() ? "" : " " + figure.unit);
}

std::string figure_delta_text(const FigureComparison& figure) {
    const double delta = figure.delta();
    std::string text = figure_text(figure, delta);
    // A difference too small for the decimals shown is none: "0.00", not "-0.00" or "+0.00".
    if (text.find_first_of("123456789") >= text.find(' ')) return text[0] == '-' ? text.substr(1) : text;
    return (delta > 0 ? "+" : "") + text;
}

std::string figure_ratio_text(const FigureComparison& figure) {
    const auto ratio = figure.ratio();
    return ratio ? format_fixed(*ratio, 2) + "x" : "-";
}

std::string stage_ratio_text(const StageComparison& stage) {
    const bool both = stage.a.count > 0 && stage.b.count > 0 && stage.a.median_us > 0;
    return both ? format_fixed(stage.b.median_us / stage.a.median_us, 2) + "x" : "-";
}

}  // namespace pinscope
