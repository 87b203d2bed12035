// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CompareCommand.h"

#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/TextTable.h"
#include "engine/compare/RunComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {
namespace {

struct RunRef {
    std::string path;
    std::int64_t run = 0;  // 0: the file's last
};

// "FILE" or "FILE:RUN"; a file whose own name ends in ":N" is taken whole.
RunRef parse_ref(const std::string& text) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon + 1 == text.size() || std::filesystem::exists(text)) return {text, 0};
    const std::string number = text.substr(colon + 1);
    if (number.find_first_not_of("0123456789") != std::string::npos || number.size() > 12) return {text, 0};
    const std::int64_t run = std::stoll(number);
    if (run < 1) throw UsageError(printable(text) + ": a run number from 1 after the colon");
    return {text.substr(0, colon), run};
}

struct LoadedRun {
    RecordedRun run;
    std::string label;  // "run 2 of a.pinscope"
};

LoadedRun load(const std::string& text) {
    const RunRef ref = parse_ref(text);
    const RecordingReader reader(ref.path);
    std::int64_t id = ref.run;
    if (id == 0) {
        const std::vector<RecordedRunInfo> runs = reader.runs();
        if (runs.empty()) throw UsageError(printable_path(ref.path) + ": the recording holds no run yet");
        id = runs.back().id;
    }
    LoadedRun loaded{reader.load(id), {}};
    loaded.label = "run " + std::to_string(id) + " of " + printable_path(ref.path);
    return loaded;
}

std::string signed_number(double value, int decimals) { return (value > 0 ? "+" : "") + format_fixed(value, decimals); }

int decimals_for(const FigureComparison& figure) {
    if (figure.unit == "%" || figure.unit == "GB/s" || figure.unit == "s") return figure.unit == "%" ? 1 : 2;
    return figure.name == "batches" || figure.name == "reconfigurations" || figure.name == "page-locked allocations" ? 0 : 1;
}

void print_run(const char* name, const LoadedRun& loaded) {
    const RecordedRunInfo& info = loaded.run.info;
    const DeviceInfo& device = loaded.run.record.summary.device;
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
    const RunComparison comparison = compare_runs(a.run.record, b.run.record);
    print_run("A", a);
    print_run("B", b);

    std::cout << "\nconfiguration, A -> B\n";
    if (comparison.differences.empty()) std::cout << "  the same\n";
    for (const std::string& line : comparison.differences) std::cout << "  " << printable(line, 4 * kEchoChars) << '\n';

    std::vector<std::vector<std::string>> rows{{"figure", "A", "B", "B - A", "B / A"}};
    for (const FigureComparison& f : comparison.figures) {
        const int decimals = decimals_for(f);
        const std::string unit = f.unit.empty() ? "" : " " + f.unit;
        const auto ratio = f.ratio();
        rows.push_back({f.name, format_fixed(f.a, decimals) + unit, format_fixed(f.b, decimals) + unit,
                        signed_number(f.delta(), decimals) + unit, ratio ? format_fixed(*ratio, 2) + "x" : "-"});
    }
    std::cout << '\n';
    for (const std::string& line : align_table(rows, {Align::Left})) std::cout << line << '\n';

    std::vector<std::vector<std::string>> stages{{"stage (us)", "A median", "A p95", "B median", "B p95", "B / A median", "spans A", "spans B"}};
    for (const StageComparison& s : comparison.stages) {
        const bool both = s.a.count > 0 && s.b.count > 0 && s.a.median_us > 0;
        const auto cell = [](const StageDurations& d, double value) { return d.count > 0 ? format_fixed(value, 1) : std::string("-"); };
        stages.push_back({std::string(to_string(s.stage)), cell(s.a, s.a.median_us), cell(s.a, s.a.p95_us),
                          cell(s.b, s.b.median_us), cell(s.b, s.b.p95_us),
                          both ? format_fixed(s.b.median_us / s.a.median_us, 2) + "x" : "-", std::to_string(s.a.count),
                          std::to_string(s.b.count)});
    }
    std::cout << '\n';
    for (const std::string& line : align_table(stages, {Align::Left})) std::cout << line << '\n';
    std::cout << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
