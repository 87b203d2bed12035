// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli run: one run of a configuration, its summary on stdout, and the exports asked for.
#include <string>

#include "app/cli/ConfigFlags.h"

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
    std::string csv_dir_;
    std::string trace_path_;
    std::string summary_path_;
    bool no_advice_ = false;
};

}  // namespace pinscope::cli
