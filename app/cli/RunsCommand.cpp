// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RunsCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/RunsTable.h"

namespace pinscope::cli {

RunsCommand::RunsCommand(CLI::App& app)
    : command_(app.add_subcommand("runs", "List the runs a recording holds")), input_(*command_, false) {}

bool RunsCommand::selected() const { return command_->parsed(); }

int RunsCommand::execute() const {
    const auto reader = input_.open();
    const std::vector<RecordedRunInfo> runs = reader->runs();
    if (runs.empty()) {
        std::cout << "no runs in " << input_.path() << '\n';
        return kExitOk;
    }
    std::cout << format_runs_table(runs) << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
