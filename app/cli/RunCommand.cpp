// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RunCommand.h"

#include <functional>
#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "app/cli/RunDriver.h"
#include "engine/advice/Advisor.h"
#include "engine/config/ConfigError.h"
#include "engine/export/RunExports.h"
#include "engine/export/SummaryJson.h"
#include "engine/text/TextFormat.h"

namespace pinscope::cli {

namespace {

// Writes the exports; on failure says so and returns false.
bool write_export(const std::function<void()>& write, const std::string& done) {
    try {
        write();
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return false;
    }
    std::cout << done << std::flush;
    return true;
}

// The row label, padded as the summary's rows are.
std::string label(const std::string& text) { return text + std::string(text.size() < 16 ? 16 - text.size() : 1, ' '); }

// One `try` row per suggestion: the change, the batches/s the emulated device predicts for it,
// and what it predicts for the run's own configuration.
void print_advice(const std::vector<Advice>& advice, const std::string& device) {
    for (const Advice& a : advice)
        std::cout << label("try") << a.change.text() << ": " << format_fixed(a.predicted_batches_per_s, 0)
                  << " batches/s predicted (" << format_fixed(a.baseline_batches_per_s, 0) << " as run), on "
                  << device << "; " << a.change.why << '\n';
    std::cout << std::flush;
}

}  // namespace

RunCommand::RunCommand(CLI::App& app)
    : command_(app.add_subcommand("run", "Run one configuration and print its summary")),
      flags_(*command_, ConfigFlags::Mode::Run) {
    command_->add_option("--csv", csv_dir_, "write spans.csv, counters.csv, numa.csv and summary.json into this folder")
        ->type_name("DIR");
    command_->add_option("--trace", trace_path_, "write a Chrome trace (opens in Perfetto) to this file")
        ->type_name("FILE");
    command_->add_option("--summary", summary_path_, "write the summary as JSON to this file")->type_name("FILE");
    command_->add_flag("--no-advice", no_advice_,
                       "skip the suggestions: each is predicted by a 2 s run on the emulated device after the run");
    command_->footer(
        "Ctrl-C (or SIGTERM) stops the run at once; the summary and files still come out, then it exits 130 "
        "(143 for SIGTERM).");
}

bool RunCommand::selected() const { return command_->parsed(); }

int RunCommand::execute() const {
    const LoaderConfig config = flags_.config();
    flags_.validate(config);
    if (!csv_dir_.empty()) check_writable("--csv", csv_dir_, OutputKind::Directory);
    if (!trace_path_.empty()) check_writable("--trace", trace_path_, OutputKind::File);
    if (!summary_path_.empty()) check_writable("--summary", summary_path_, OutputKind::File);

    // Opened before the run, so that a path that cannot be written is refused at once; the files
    // are streamed to while the run goes and replace their targets together at the end.
    std::shared_ptr<RunFileExports> exports;
    if (!csv_dir_.empty() || !trace_path_.empty() || !summary_path_.empty())
        exports = std::make_shared<RunFileExports>(ExportPaths{csv_dir_, trace_path_, summary_path_});
    RunDriver driver(exports);
    bool interrupted = false;
    try {
        interrupted = driver.run(config);
    } catch (const ConfigError& error) {
        throw UsageError(flags_.describe(error.issue()));  // a device profile that cannot be loaded
    }
    const Runner& runner = driver.runner();
    RunSummary summary = runner.summary();
    if (interrupted) std::cerr << kProgram << ": interrupted; the summary covers the run so far\n";
    std::cout << format_summary(summary) << label("bottleneck") << summary.bottleneck.evidence << '\n' << std::flush;
    if (!no_advice_ && !interrupted && summary.error.empty()) {
        AdviceOptions options;
        options.cancelled = [] { return RunDriver::interrupted(); };
        try {
            summary.advice = advise(summary, options);
            print_advice(summary.advice, prediction_device(summary));
        } catch (const std::exception& e) {
            std::cerr << kProgram << ": no suggestions: " << e.what() << '\n';
        }
    }

    bool written = true;
    if (exports) {
        std::string done;
        if (!csv_dir_.empty()) done += "wrote spans.csv, counters.csv, numa.csv, summary.json to " + csv_dir_ + "\n";
        if (!trace_path_.empty()) done += "wrote " + trace_path_ + "\n";
        if (!summary_path_.empty()) done += "wrote " + summary_path_ + "\n";
        written = write_export([&] { exports->finish(summary); }, done);
    }

    if (!summary.error.empty()) {
        if (!driver.engine_reported_error()) std::cerr << kProgram << ": run failed: " << summary.error << '\n';
        return kExitFailure;
    }
    if (!written) return kExitFailure;
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
