// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli show FILE [--run N]: a recorded run's summary, as run prints it.
#include "app/cli/RecordingInput.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class ShowCommand {
public:
    explicit ShowCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws RecordingError (exit 2) when the file or run cannot be read.
    int execute() const;

private:
    CLI::App* command_;
    RecordingInput input_;
};

}  // namespace pinscope::cli
