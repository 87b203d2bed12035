// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two runs side by side: what differs in their configuration and device, every summary figure of
// both with its difference and ratio, each stage's span durations (median and p95), and segment
// by segment when both were reconfigured while they ran (or one segment of each: segment_record).
// The CLI's compare prints it and the window's comparison shows it, each figure written the same
// way (figure_text and its kin).
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/runner/RunRecord.h"

namespace pinscope {

struct FigureComparison {
    std::string name;  // "batches/s", "GPU busy"
    std::string unit;  // "", "%", "GB/s", "MiB"
    double a = 0;
    double b = 0;
    int decimals = 1;  // as printed
    double delta() const { return b - a; }
    std::optional<double> ratio() const;  // b / a; none when a is 0
};

struct StageDurations {
    Stage stage = Stage::Load;
    std::size_t count = 0;
    double median_us = 0;
    double p95_us = 0;
};

struct StageComparison {
    Stage stage = Stage::Load;
    StageDurations a, b;
};

// The same segment (by number) of two runs: what differs in their configuration, and each figure.
struct SegmentComparison {
    RunSegment a, b;
    std::vector<std::string> differences;
    std::vector<FigureComparison> figures;  // as RunComparison's, less reconfigurations
};

struct RunComparison {
    std::vector<std::string> differences;  // "pin_memory: on -> off", "device: ..."
    std::vector<FigureComparison> figures;
    std::vector<StageComparison> stages;    // stages either run has, in Stage order
    // When both runs have several segments: segment 1 with segment 1, and so on, as far as the
    // shorter goes.
    std::vector<SegmentComparison> segments;
};

// Span durations by stage, gathered as spans come: a whole run at once, or frame by frame.
class StageDurationSamples {
public:
    void add(const std::vector<Span>& spans);
    void add(Stage stage, TimeNs duration);
    void clear();
    std::size_t size() const;
    // Each stage's count, median and p95 (nearest rank) over what was added, in Stage order, only
    // the stages there are. Sorts what was added since the last call.
    std::vector<StageDurations> durations();

private:
    std::array<std::vector<double>, kStageCount> us_;
    bool sorted_ = true;
};

// Per stage, over the spans given (span ends in any order).
std::vector<StageDurations> stage_durations(const std::vector<Span>& spans);

RunComparison compare_runs(const RunRecord& a, const RunRecord& b);
// The same from each run's summary and its stages' durations (the window's comparison, which
// takes the spans frame by frame).
RunComparison compare_runs(const RunSummary& a, const RunSummary& b, const std::vector<StageDurations>& stages_a,
                           const std::vector<StageDurations>& stages_b);

// A figure of a comparison as the CLI prints it and the window shows it: A or B with its unit
// ("384.6", "54.20 GB/s", "97.3 %"), B - A signed ("+1.2 %"), and B / A ("0.75x", "-" when A is 0).
std::string figure_text(const FigureComparison& figure, double value);
std::string figure_delta_text(const FigureComparison& figure);
std::string figure_ratio_text(const FigureComparison& figure);
// B's median over A's for a stage both runs have ("1.52x"), else "-".
std::string stage_ratio_text(const StageComparison& stage);

// Segment `index` (from 1) of a run as a run of its own: its configuration, figures and pinned
// footprint as the summary's, and the spans that ended in it (counters, markers and NUMA samples
// taken in it). The run itself when it has no such segment.
RunRecord segment_record(const RunRecord& run, std::uint32_t index);

}  // namespace pinscope
