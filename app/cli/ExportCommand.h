// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli export FILE [--run N] --csv DIR --trace F --summary F: a recorded run's files,
// exactly as run would have written them, through the same exporters.
#include "app/cli/ExportFlags.h"
#include "app/cli/RecordingInput.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class ExportCommand {
public:
    explicit ExportCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws RecordingError or UsageError (exit 2) on bad input.
    int execute() const;

private:
    CLI::App* command_;
    RecordingInput input_;
    ExportFlags exports_;
};

}  // namespace pinscope::cli
