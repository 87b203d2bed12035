// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli topology: the machine tree (this machine, or a loaded hwloc XML topology) with each
// NVIDIA GPU under its NUMA node, and where the run's GPU is local.
#include <string>

namespace CLI {
class App;
}

namespace pinscope::cli {

class TopologyCommand {
public:
    explicit TopologyCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws UsageError on bad input (a topology that cannot be loaded, an unknown GPU).
    int execute() const;

private:
    CLI::App* command_;
    std::string xml_;
    std::string gpu_;
};

}  // namespace pinscope::cli
