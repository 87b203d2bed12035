// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli runs FILE: the runs a recording holds, as a table.
#include "app/cli/RecordingInput.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class RunsCommand {
public:
    explicit RunsCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws RecordingError (exit 2) when the file is not a recording it reads.
    int execute() const;

private:
    CLI::App* command_;
    RecordingInput input_;
};

}  // namespace pinscope::cli
