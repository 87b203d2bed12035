// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli doctor: what on this machine limits or slows pinning for a configuration, one line
// per check with its verdict (ok, note, warn).
#include <string>

#include "app/cli/ConfigFlags.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class DoctorCommand {
public:
    explicit DoctorCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // 0 whatever it finds; throws UsageError on bad arguments.
    int execute() const;

private:
    CLI::App* command_;
    ConfigFlags flags_;
    std::string root_ = "/";
};

}  // namespace pinscope::cli
