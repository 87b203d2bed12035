// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli lesson list | check [NAME|FILE|all]: the workshop lessons, and each one's steps
// run here with its claims checked, before class.
#include <string>

#include "app/cli/RecordFlag.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class LessonCommand {
public:
    explicit LessonCommand(CLI::App& app);  // adds the subcommand and its two
    bool selected() const;
    // The exit code: 0 every claim held, 1 one did not (or a run failed), 2 bad input (a lesson
    // file that is not valid, named with its step and field); throws UsageError for bad flags.
    int execute() const;

private:
    int list() const;
    int check() const;

    CLI::App* command_;
    CLI::App* list_;
    CLI::App* check_;
    std::string lesson_ = "all";
    std::string device_ = "auto";
    double seconds_scale_ = 1;
    unsigned retries_ = 2;
    RecordFlag record_;
};

}  // namespace pinscope::cli
