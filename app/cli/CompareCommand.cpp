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
    std::string label;  // "run 2 of a.pinscope"
};

LoadedRun load(const std::string& text) {
    const RunReference ref = parse_run_reference(text);
    const RecordingReader reader(ref.path);
    const std::int64_t id = pick_run(reader, ref.run);
    return {reader.run(id), reader.summary(id), reader.stage_durations(id), run_label(ref.path, id)};
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
    command_->add_option("A", a_, "a recording (its last run) or FILE:RUN")->required()->type_name("FILE[:RUN]");
    command_->add_option("B", b_, "the run to compare with A, as A")->required()->type_name("FILE[:RUN]");
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
    std::cout << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
