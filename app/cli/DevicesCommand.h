// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli devices: the CUDA GPUs this build can use and the emulated device's profiles.
namespace CLI {
class App;
}

namespace pinscope::cli {

class DevicesCommand {
public:
    explicit DevicesCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    int execute() const;  // the exit code

private:
    CLI::App* command_;
};

}  // namespace pinscope::cli
