// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/LessonFigures.h"

#include <array>
#include <cmath>

#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr std::string_view kBusyPrefix = "busy.";

constexpr std::array kResources{Resource::Workers,     Resource::PinThread,  Resource::Consumer,
                                Resource::PageableStaging, Resource::PageLocking, Resource::CopyEngine,
                                Resource::Compute,     Resource::BatchCredits, Resource::PinnedBudget};

std::vector<LessonFigure> make_figures() {
    std::vector<LessonFigure> figures{
        {"batches_per_s", "batches/s", FigureUnit::BatchesPerS},
        {"h2d_gb_per_s", "H2D GB/s", FigureUnit::GbPerS},
        {"gpu_busy", "GPU busy", FigureUnit::Share},
        {"copy_hidden", "copy hidden", FigureUnit::Share},
        {"gpu_starved", "GPU starved", FigureUnit::Share},
        {"consumer_wait", "consumer wait", FigureUnit::Share},
        {"host_held", "host held", FigureUnit::Share},
        {"pinned_peak", "pinned peak", FigureUnit::Bytes},
        {"pinned_allocations", "page-locked allocations", FigureUnit::Count},
        {"cross_node_h2d", "H2D from the far node", FigureUnit::Share},
    };
    for (Resource resource : kResources)
        figures.push_back({std::string(kBusyPrefix) + std::string(to_string(resource)),
                           std::string(describe(resource)) + " busy", FigureUnit::Share});
    // "the pin thread busy" reads better without the article.
    for (LessonFigure& figure : figures)
        if (figure.label.starts_with("the ")) figure.label.erase(0, 4);
    return figures;
}

// The bottleneck table's row for `resource`: the aggregate, which follows the per-worker rows.
const ResourceUse* resource_row(const Bottleneck& bottleneck, std::string_view name) {
    const ResourceUse* found = nullptr;
    for (const ResourceUse& use : bottleneck.resources)
        if (to_string(use.resource) == name) found = &use;
    return found;
}

}  // namespace

const std::vector<LessonFigure>& lesson_figures() {
    static const std::vector<LessonFigure> figures = make_figures();
    return figures;
}

const LessonFigure* find_lesson_figure(std::string_view name) {
    for (const LessonFigure& figure : lesson_figures())
        if (figure.name == name) return &figure;
    return nullptr;
}

std::string lesson_figure_names() {
    std::string names;
    for (const LessonFigure& figure : lesson_figures()) names += (names.empty() ? "" : ", ") + figure.name;
    return names;
}

std::optional<double> figure_value(const LessonFigure& figure, const StepResult& result) {
    if (!result.ran) return std::nullopt;
    const std::string_view name = figure.name;
    const Metrics& w = result.window;
    if (name == "batches_per_s") return w.batches_per_s;
    if (name == "h2d_gb_per_s") return w.h2d_gb_per_s;
    if (name == "gpu_busy") return w.gpu_busy;
    if (name == "copy_hidden") return w.copy_hidden;
    if (name == "gpu_starved") return w.gpu_starved;
    if (name == "consumer_wait") return w.consumer_wait;
    if (name == "host_held") return w.host_held;
    const RunSummary& s = result.summary;
    if (name == "pinned_peak") return static_cast<double>(s.pinned.reserved_bytes.peak);
    if (name == "pinned_allocations") return static_cast<double>(s.pinned.num_host_alloc);
    if (name == "cross_node_h2d") {
        if (s.numa.usage.h2d_bytes == 0) return std::nullopt;
        return static_cast<double>(s.numa.usage.cross_node_h2d_bytes) / static_cast<double>(s.numa.usage.h2d_bytes);
    }
    if (name.starts_with(kBusyPrefix)) {
        const ResourceUse* row = resource_row(result.window_bottleneck, name.substr(kBusyPrefix.size()));
        if (row == nullptr) return std::nullopt;
        return row->utilisation;
    }
    return std::nullopt;
}

std::string figure_text(const LessonFigure& figure, double value) {
    switch (figure.unit) {
        case FigureUnit::BatchesPerS: return format_fixed(value, value < 10 ? 1 : 0) + " batches/s";
        case FigureUnit::GbPerS: return rate_text(value * 1e9, 1);
        case FigureUnit::Share: return format_fixed(value * 100, 0) + " %";
        case FigureUnit::Bytes: return memory_text(value);
        case FigureUnit::Count: return format_fixed(std::round(value), 0);
    }
    return format_fixed(value, 2);
}

}  // namespace pinscope
