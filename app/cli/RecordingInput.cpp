// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RecordingInput.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"

namespace pinscope::cli {

RecordingInput::RecordingInput(CLI::App& command, bool pick_run) {
    command.add_option("FILE", path_, "a recording (pinscope-cli run --record FILE)")->required()->type_name("FILE");
    if (pick_run)
        command.add_option("--run", run_, "the run's number (pinscope-cli runs FILE lists them); default: the last")
            ->type_name("N")
            ->check(CLI::PositiveNumber);
}

std::unique_ptr<RecordingReader> RecordingInput::open() const { return std::make_unique<RecordingReader>(path_); }

std::int64_t RecordingInput::pick(const RecordingReader& reader) const {
    if (run_ > 0) return reader.run(run_).id;
    const std::vector<RecordedRunInfo> runs = reader.runs();
    if (runs.empty()) throw UsageError(printable_path(path_) + ": the recording holds no run yet");
    if (runs.size() > 1)
        std::cerr << kProgram << ": " << printable_path(path_) << " holds " << runs.size() << " runs; this is the last, run "
                  << runs.back().id << " (--run N for another)\n";
    return runs.back().id;
}

}  // namespace pinscope::cli
