// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli calibrate: measures a hardware profile on the GPU at hand and writes its JSON.
#include <string>

namespace CLI {
class App;
}

namespace pinscope::cli {

class CalibrateCommand {
public:
    // Adds the subcommand; `command_line` is recorded in the profile as the command that made it.
    CalibrateCommand(CLI::App& app, std::string command_line);
    bool selected() const;
    // The exit code; throws UsageError on bad input and std::exception when there is no GPU or a
    // measurement fails.
    int execute() const;

private:
    CLI::App* command_;
    std::string command_line_;
    std::string device_ = "cuda";
    std::string name_;
    std::string out_path_;
    bool quick_ = false;
};

// A profile's name: letters, digits, '-', '_' and '.', not starting with '.' or '-'.
bool valid_profile_name(const std::string& name);

// The arguments as one shell line, each quoted where the shell would need it.
std::string shell_command_line(int argc, const char* const* argv);

}  // namespace pinscope::cli
