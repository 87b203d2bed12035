// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli compare A B: two recorded runs side by side (configuration differences, every
// summary figure with its difference and ratio, each stage's median and p95 duration). A and B are
// recordings (their last run) or FILE:RUN.
#include <string>

namespace CLI {
class App;
}

namespace pinscope::cli {

class CompareCommand {
public:
    explicit CompareCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws RecordingError or UsageError (exit 2) when a file or run cannot be read.
    int execute() const;

private:
    CLI::App* command_;
    std::string a_, b_;
};

}  // namespace pinscope::cli
