#include "RunCommand.h"

#include <functional>
#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "ExitCodes.h"
#include "OutputPaths.h"
#include "RunDriver.h"
#include "config/ConfigError.h"
#include "export/RunExports.h"
#include "export/SummaryJson.h"

namespace pinscope::cli {

namespace {

// Writes one export; on failure says so and returns false.
bool write_export(const std::function<void()>& write, const std::string& done) {
    try {
        write();
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return false;
    }
    std::cout << done << '\n';
    return true;
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

    const bool keep_record = !csv_dir_.empty() || !trace_path_.empty() || !summary_path_.empty();
    RunDriver driver(keep_record);
    bool interrupted = false;
    try {
        interrupted = driver.run(config);
    } catch (const ConfigError& error) {
        throw UsageError(flags_.describe(error.issue()));  // a device profile that cannot be loaded
    }
    const Runner& runner = driver.runner();
    const RunRecord record = keep_record ? runner.record() : RunRecord{runner.summary(), 0, {}, {}, {}};
    const RunSummary& summary = record.summary;
    if (interrupted) std::cerr << kProgram << ": interrupted; the summary covers the run so far\n";
    std::cout << format_summary(summary) << std::flush;

    bool written = true;
    if (!csv_dir_.empty())
        written &= write_export([&] { export_csv_dir(csv_dir_, record); },
                                "wrote spans.csv, counters.csv, numa.csv, summary.json to " + csv_dir_);
    if (!trace_path_.empty())
        written &= write_export([&] { export_chrome_trace(trace_path_, record); }, "wrote " + trace_path_);
    if (!summary_path_.empty())
        written &= write_export([&] { export_summary_json(summary_path_, summary); }, "wrote " + summary_path_);

    if (!summary.error.empty()) {
        if (!driver.engine_reported_error()) std::cerr << kProgram << ": run failed: " << summary.error << '\n';
        return kExitFailure;
    }
    if (!written) return kExitFailure;
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
