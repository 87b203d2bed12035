// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The figures a lesson's claims and answers may name ("batches_per_s", "busy.pin_thread"), each
// read from a step's result and written with its unit.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/lesson/StepResult.h"

namespace pinscope {

enum class FigureUnit : std::uint8_t { BatchesPerS, GbPerS, Share, Bytes, Count };

struct LessonFigure {
    std::string name;   // as lesson files write it
    std::string label;  // as people read it: "batches/s", "pin thread busy"
    FigureUnit unit = FigureUnit::Count;
};

// Every figure, the steady-state ones first: batches_per_s, h2d_gb_per_s, gpu_busy, copy_hidden,
// gpu_starved, consumer_wait, host_held (the last second); pinned_peak, pinned_allocations,
// cross_node_h2d (the whole run); busy.RESOURCE for each resource the bottleneck table has
// (the last second).
const std::vector<LessonFigure>& lesson_figures();
const LessonFigure* find_lesson_figure(std::string_view name);
// The names, for messages: "batches_per_s, h2d_gb_per_s, ...".
std::string lesson_figure_names();

// The figure's value in a result; nullopt when the run has no such thing (a resource that did
// nothing, a step that did not run).
std::optional<double> figure_value(const LessonFigure& figure, const StepResult& result);
// "412 batches/s", "37 %", "704 MiB", "12".
std::string figure_text(const LessonFigure& figure, double value);

}  // namespace pinscope
