// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CompareCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/TextTable.h"
#include "engine/compare/RunComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RunReference.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {
namespace {

// What the comparison needs of a run: its summary and its stages' durations, not its spans.
struct LoadedRun {
    RecordedRunInfo info;
    RunSummary summary;
    std::vector<StageDurations> stages;
    std::string label;  // "run 2 of a.pinscope", "segment 3 of run 2 of a.pinscope"
};

LoadedRun load(const std::string& text) {
    const RunReference ref = parse_run_reference(text);
    const RecordingReader reader(ref.path);
    const std::int64_t id = pick_run(reader, ref.run);
    LoadedRun loaded{reader.run(id), {}, {}, run_label(ref.path, id)};
    if (ref.segment == 0) {
        loaded.summary = reader.summary(id);
        loaded.stages = reader.stage_durations(id);
        return loaded;
    }
    // One segment: its spans are picked by when they ended, so the run is read whole.
    const RecordedRun run = reader.load(id);
    const std::size_t count = run.record.summary.segments.size();
    if (ref.segment > count)
        throw UsageError(printable(text) + ": run " + std::to_string(id) + " has " + std::to_string(count) +
                         (count == 1 ? " segment" : " segments") + " (1 to " + std::to_string(count) + ")");
    const RunRecord part = segment_record(run.record, ref.segment);
    loaded.summary = part.summary;
    loaded.stages = stage_durations(part.spans);
    loaded.label = "segment " + std::to_string(ref.segment) + " of " + loaded.label;
    return loaded;
}

std::string span_text(const RunSegment& segment, TimeNs origin) {
    return format_fixed(segment.begin_s(origin), 1) + "-" + format_fixed(segment.end_s(origin), 1) + " s";
}

const FigureComparison* find_figure(const std::vector<FigureComparison>& figures, const std::string& name) {
    for (const FigureComparison& f : figures)
        if (f.name == name) return &f;
    return nullptr;
}

// Both runs were reconfigured: one line per segment pair, its times, the key figures side by
// side, and what differs between the two segments' configurations.
void print_segments(const RunComparison& comparison, const LoadedRun& a, const LoadedRun& b) {
    std::vector<std::vector<std::string>> rows{
        {"segment", "A time", "B time", "A batches/s", "B batches/s", "B / A", "A GPU busy", "B GPU busy", "A pinned peak", "B pinned peak"}};
    for (const SegmentComparison& pair : comparison.segments) {
        const FigureComparison* rate = find_figure(pair.figures, "batches/s");
        const FigureComparison* busy = find_figure(pair.figures, "GPU busy");
        const FigureComparison* peak = find_figure(pair.figures, "pinned peak");
        const auto ratio = rate->ratio();
        rows.push_back({std::to_string(pair.a.index), span_text(pair.a, a.info.origin),
                        span_text(pair.b, b.info.origin), format_fixed(rate->a, 1), format_fixed(rate->b, 1),
                        ratio ? format_fixed(*ratio, 2) + "x" : "-", format_fixed(busy->a, 1) + " %",
                        format_fixed(busy->b, 1) + " %", format_fixed(peak->a, 1) + " MiB", format_fixed(peak->b, 1) + " MiB"});
    }
    std::cout << "\nsegment by segment (FILE:RUN:SEGMENT compares one segment in full)\n";
    for (const std::string& line : align_table(rows, {Align::Left})) std::cout << line << '\n';
    for (const SegmentComparison& pair : comparison.segments) {
        std::cout << "segment " << pair.a.index << ": A " << printable(pair.a.change.empty() ? "as the run began" : pair.a.change, 2 * kEchoChars)
                  << "; B " << printable(pair.b.change.empty() ? "as the run began" : pair.b.change, 2 * kEchoChars) << '\n';
        for (const std::string& line : pair.differences) std::cout << "  A -> B  " << printable(line, 4 * kEchoChars) << '\n';
    }
}

void print_run(const char* name, const LoadedRun& loaded) {
    const RecordedRunInfo& info = loaded.info;
    const DeviceInfo& device = loaded.summary.device;
    std::cout << name << "  " << loaded.label << ": " << to_string(device.kind) << " "
              << printable(device.kind == DeviceKind::Cuda ? device.name : device.profile) << ", host "
              << printable(info.host_name) << ", " << printable(info.started_utc)
              << (info.finished ? "" : " (unfinished)") << '\n';
}

}  // namespace

CompareCommand::CompareCommand(CLI::App& app)
    : command_(app.add_subcommand("compare", "Two recorded runs side by side: configuration, every figure, each stage")) {
    command_->add_option("A", a_, "a recording (its last run), FILE:RUN, or FILE:RUN:SEGMENT for one segment of a run")
        ->required()
        ->type_name("FILE[:RUN[:SEG]]");
    command_->add_option("B", b_, "the run (or segment) to compare with A, as A")->required()->type_name("FILE[:RUN[:SEG]]");
    command_->footer(
        "A run reconfigured while it ran has a segment per configuration (pinscope-cli show lists them). When both "
        "runs have several, they are also compared segment by segment; FILE:RUN:SEG compares one segment in full, "
        "and two segments of one run compare the run before and after a change.");
}

bool CompareCommand::selected() const { return command_->parsed(); }

int CompareCommand::execute() const {
    const LoadedRun a = load(a_);
    const LoadedRun b = load(b_);
    const RunComparison comparison = compare_runs(a.summary, b.summary, a.stages, b.stages);
    print_run("A", a);
    print_run("B", b);

    std::cout << "\nconfiguration, A -> B\n";
    if (comparison.differences.empty()) std::cout << "  the same\n";
    for (const std::string& line : comparison.differences) std::cout << "  " << printable(line, 4 * kEchoChars) << '\n';

    std::vector<std::vector<std::string>> rows{{"figure", "A", "B", "B - A", "B / A"}};
    for (const FigureComparison& f : comparison.figures)
        rows.push_back({f.name, figure_text(f, f.a), figure_text(f, f.b), figure_delta_text(f), figure_ratio_text(f)});
    std::cout << '\n';
    for (const std::string& line : align_table(rows, {Align::Left})) std::cout << line << '\n';

    std::vector<std::vector<std::string>> stages{{"stage (us)", "A median", "A p95", "B median", "B p95", "B / A median", "spans A", "spans B"}};
    for (const StageComparison& s : comparison.stages) {
        const auto cell = [](const StageDurations& d, double value) { return d.count > 0 ? format_fixed(value, 1) : std::string("-"); };
        stages.push_back({std::string(to_string(s.stage)), cell(s.a, s.a.median_us), cell(s.a, s.a.p95_us),
                          cell(s.b, s.b.median_us), cell(s.b, s.b.p95_us),
                          stage_ratio_text(s), std::to_string(s.a.count),
                          std::to_string(s.b.count)});
    }
    std::cout << '\n';
    for (const std::string& line : align_table(stages, {Align::Left})) std::cout << line << '\n';
    if (!comparison.segments.empty()) print_segments(comparison, a, b);
    std::cout << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
