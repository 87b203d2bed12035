// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli run: one run of a configuration, its summary on stdout, and the exports and
// recording asked for.
#include <string>

#include "app/cli/ConfigFlags.h"
#include "app/cli/ExportFlags.h"
#include "app/cli/ChangeFlag.h"
#include "app/cli/RecordFlag.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class RunCommand {
public:
    explicit RunCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws UsageError on bad input and std::exception when the run cannot start.
    int execute() const;

private:
    CLI::App* command_;
    ConfigFlags flags_;
    ExportFlags exports_;
    RecordFlag record_;
    ChangeFlag changes_;
    bool no_advice_ = false;
};

}  // namespace pinscope::cli
