// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RunCommand.h"

#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/RunDriver.h"
#include "app/cli/SummaryLines.h"
#include "engine/advice/Advisor.h"
#include "engine/config/ConfigError.h"
#include "engine/export/SummaryJson.h"
#include "engine/text/TextFormat.h"

namespace pinscope::cli {

RunCommand::RunCommand(CLI::App& app)
    : command_(app.add_subcommand("run", "Run one configuration and print its summary")),
      flags_(*command_, ConfigFlags::Mode::Run),
      exports_(*command_),
      record_(*command_),
      changes_(*command_) {
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
    const std::vector<TimedChange> changes = changes_.changes(config);
    exports_.check_writable();

    // Opened before the run, so that a path that cannot be written is refused at once; the files
    // are streamed to while the run goes and replace their targets together at the end.
    const std::shared_ptr<RecordingWriter> recording = record_.open();
    std::shared_ptr<RunFileExports> exports;
    if (exports_.any()) exports = std::make_shared<RunFileExports>(exports_.paths());
    std::vector<std::shared_ptr<RunRecorder>> recorders;
    if (exports) recorders.push_back(exports);
    if (recording) recorders.push_back(recording);
    RunDriver driver(recorders.empty() ? nullptr : std::make_shared<RunRecorders>(recorders));
    bool interrupted = false;
    try {
        interrupted = driver.run(config, changes);
    } catch (const ConfigError& error) {
        throw UsageError(flags_.describe(error.issue()));  // a device profile that cannot be loaded
    }
    const Runner& runner = driver.runner();
    RunSummary summary = runner.summary();
    if (interrupted) std::cerr << kProgram << ": interrupted; the summary covers the run so far\n";
    std::cout << format_summary(summary) << segment_lines(summary) << bottleneck_line(summary) << std::flush;
    if (!no_advice_ && !interrupted && summary.error.empty()) {
        AdviceOptions options;
        options.cancelled = [] { return RunDriver::interrupted(); };
        try {
            summary.advice = advise(summary, options);
            std::cout << advice_lines(summary) << std::flush;
        } catch (const std::exception& e) {
            std::cerr << kProgram << ": no suggestions: " << e.what() << '\n';
        }
    }

    bool written = !exports || exports_.finish(*exports, summary);
    if (recording) {
        if (RecordFlag::finish(*recording, summary))
            std::cout << "recorded run " << recording->run_id() << " in " << recording->path() << '\n' << std::flush;
        else
            written = false;
    }

    if (!summary.error.empty()) {
        if (!driver.engine_reported_error()) std::cerr << kProgram << ": run failed: " << summary.error << '\n';
        return kExitFailure;
    }
    if (!written) return kExitFailure;
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
