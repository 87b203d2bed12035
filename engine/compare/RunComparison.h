// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two runs side by side: what differs in their configuration and device, every summary figure of
// both with its difference and ratio, and each stage's span durations (median and p95). The CLI's
// compare prints it; the window's comparison will show the same figures.
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

struct RunComparison {
    std::vector<std::string> differences;  // "pin_memory: on -> off", "device: ..."
    std::vector<FigureComparison> figures;
    std::vector<StageComparison> stages;    // stages either run has, in Stage order
};

// Per stage, over the spans given (span ends in any order).
std::vector<StageDurations> stage_durations(const std::vector<Span>& spans);

RunComparison compare_runs(const RunRecord& a, const RunRecord& b);

}  // namespace pinscope
