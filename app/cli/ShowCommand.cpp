// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ShowCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/SummaryLines.h"
#include "engine/export/SummaryJson.h"

namespace pinscope::cli {

ShowCommand::ShowCommand(CLI::App& app)
    : command_(app.add_subcommand("show", "Print a recorded run's summary, as run prints it")), input_(*command_, true) {}

bool ShowCommand::selected() const { return command_->parsed(); }

int ShowCommand::execute() const {
    const auto reader = input_.open();
    const std::int64_t run = input_.pick(*reader);
    const RunSummary summary = reader->summary(run);
    std::cout << format_summary(summary) << segment_lines(summary) << bottleneck_line(summary) << advice_lines(summary)
              << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
