// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli combine-profiles: one profile for machines of one kind from the calibrations of
// several, each figure their median, saying how far the machines differed.
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace pinscope::cli {

class CombineProfilesCommand {
public:
    // `command_line` is recorded in the profile as the command that made it.
    CombineProfilesCommand(CLI::App& app, std::string command_line);
    bool selected() const;
    // The exit code; throws UsageError on bad input.
    int execute() const;

private:
    CLI::App* command_;
    std::string command_line_;
    std::vector<std::string> inputs_;
    std::string name_;
    std::string out_path_;
};

}  // namespace pinscope::cli
