// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compare/RunComparison.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/metrics/Median.h"
#include "engine/metrics/MetricFields.h"
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

std::string device_text(const RunSummary& s) {
    return std::string(to_string(s.device.kind)) + " " + (s.device.kind == DeviceKind::Cuda ? s.device.name : s.device.profile);
}

// The pinned footprint as a segment or the whole run has it.
struct Footprint {
    double peak = 0, in_use_peak = 0, allocations = 0;
};

Footprint footprint_of(const RunSummary& s) {
    return {static_cast<double>(s.pinned.reserved_bytes.peak), static_cast<double>(s.pinned.allocated_bytes.peak),
            static_cast<double>(s.pinned.num_host_alloc)};
}

Footprint footprint_of(const RunSegment& s) {
    return {static_cast<double>(s.pinned_peak_bytes), static_cast<double>(s.pinned_in_use_peak_bytes),
            static_cast<double>(s.host_allocations)};
}

// Every figure of the metric table, then the pinned footprint.
std::vector<FigureComparison> figures_of(const Metrics& x, const Metrics& y, const Footprint& p, const Footprint& q) {
    std::vector<FigureComparison> figures;
    for (const MetricField& field : metric_fields())
        figures.push_back({field.label, field.unit, field.shown(x), field.shown(y), field.decimals});
    const auto mib = [](double bytes) { return bytes / static_cast<double>(kMiB); };
    figures.push_back({"pinned peak", "MiB", mib(p.peak), mib(q.peak), 1});
    figures.push_back({"pinned in use peak", "MiB", mib(p.in_use_peak), mib(q.in_use_peak), 1});
    figures.push_back({"page-locked allocations", "", p.allocations, q.allocations, 0});
    return figures;
}

std::vector<std::string> differences_of(const RunSummary& a, const LoaderConfig& config_a, const RunSummary& b,
                                        const LoaderConfig& config_b) {
    std::vector<std::string> differences;
    if (device_text(a) != device_text(b)) differences.push_back("device: " + device_text(a) + " -> " + device_text(b));
    if (a.host != b.host) differences.push_back("host: " + to_string(a.host) + " -> " + to_string(b.host));
    for (std::string& line : describe_changes(config_a, config_b)) {
        if (line.starts_with("device:")) continue;  // said above, as the runs resolved it
        differences.push_back(std::move(line));
    }
    return differences;
}

bool in_segment(TimeNs time, const RunSegment& segment, bool last) {
    return time >= segment.begin && (time < segment.end || (last && time == segment.end));
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

RunRecord segment_record(const RunRecord& run, std::uint32_t index) {
    const std::vector<RunSegment>& segments = run.summary.segments;
    if (index < 1 || index > segments.size()) return run;
    const RunSegment& segment = segments[index - 1];
    const bool last = index == segments.size();
    RunRecord part;
    part.origin = run.origin;
    part.summary = run.summary;
    RunSummary& s = part.summary;
    s.config = segment.config;
    s.metrics = segment.metrics;
    s.bottleneck = segment.bottleneck;
    s.pinned.reserved_bytes.peak = static_cast<std::int64_t>(segment.pinned_peak_bytes);
    s.pinned.allocated_bytes.peak = static_cast<std::int64_t>(segment.pinned_in_use_peak_bytes);
    s.pinned.num_host_alloc = segment.host_allocations;
    s.pinned.cache_hits = segment.cache_hits;
    s.reconfigurations = 0;
    s.advice.clear();
    s.segments = {segment};
    for (const Span& span : run.spans)
        if (in_segment(span.end, segment, last)) part.spans.push_back(span);
    for (const CounterSample& sample : run.counters)
        if (in_segment(sample.time, segment, last)) part.counters.push_back(sample);
    for (const Marker& marker : run.markers)
        if (in_segment(marker.time, segment, last)) part.markers.push_back(marker);
    for (const NumaSample& sample : run.numa_samples)
        if (in_segment(sample.time, segment, last)) part.numa_samples.push_back(sample);
    return part;
}

RunComparison compare_runs(const RunRecord& a, const RunRecord& b) {
    return compare_runs(a.summary, b.summary, stage_durations(a.spans), stage_durations(b.spans));
}

RunComparison compare_runs(const RunSummary& a, const RunSummary& b, const std::vector<StageDurations>& x,
                           const std::vector<StageDurations>& y) {
    RunComparison comparison;
    comparison.differences = differences_of(a, a.config, b, b.config);
    comparison.figures = figures_of(a.metrics, b.metrics, footprint_of(a), footprint_of(b));
    comparison.figures.push_back({"reconfigurations", "", static_cast<double>(a.reconfigurations),
                                  static_cast<double>(b.reconfigurations), 0});
    for (int i = 0; i < kStageCount; ++i) {
        const auto stage = static_cast<Stage>(i);
        const auto find = [&](const std::vector<StageDurations>& list) {
            const auto it = std::find_if(list.begin(), list.end(), [&](const StageDurations& d) { return d.stage == stage; });
            return it == list.end() ? StageDurations{stage, 0, 0, 0} : *it;
        };
        StageComparison row{stage, find(x), find(y)};
        if (row.a.count > 0 || row.b.count > 0) comparison.stages.push_back(row);
    }
    const std::vector<RunSegment>& sa = a.segments;
    const std::vector<RunSegment>& sb = b.segments;
    if (sa.size() > 1 && sb.size() > 1) {
        for (std::size_t i = 0; i < std::min(sa.size(), sb.size()); ++i) {
            SegmentComparison pair{sa[i], sb[i], differences_of(a, sa[i].config, b, sb[i].config),
                                   figures_of(sa[i].metrics, sb[i].metrics, footprint_of(sa[i]), footprint_of(sb[i]))};
            comparison.segments.push_back(std::move(pair));
        }
    }
    return comparison;
}

std::string figure_text(const FigureComparison& figure, double value) {
    return format_fixed(value, figure.decimals) + (figure.unit.empty() ? "" : " " + figure.unit);
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
