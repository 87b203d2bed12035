// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli sweep: runs every combination of the swept flags and tabulates them.
#include <string>

#include "app/cli/ConfigFlags.h"
#include "app/cli/RecordFlag.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class SweepCommand {
public:
    explicit SweepCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws UsageError on bad input and std::exception when a run cannot start.
    int execute() const;

private:
    CLI::App* command_;
    ConfigFlags flags_;
    RecordFlag record_;
    std::string csv_path_;
    double warmup_s_ = 0;
    std::string trace_spans_ = "on";
};

}  // namespace pinscope::cli
