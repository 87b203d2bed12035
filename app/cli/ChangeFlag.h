// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// run --change SECONDS:KEY=VALUE (repeatable): reconfigure the run at that many seconds from its
// start, as the window does when a control is edited; each change starts a segment.
#include <string>
#include <vector>

#include "app/cli/RunDriver.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class ChangeFlag {
public:
    explicit ChangeFlag(CLI::App& command);  // adds the flag
    // Each change applied to the configuration before it, by time. Throws UsageError naming
    // --change, the value and what is allowed (a key of the configuration file, a time inside
    // the run, a value the key takes).
    std::vector<TimedChange> changes(const LoaderConfig& start) const;

private:
    std::vector<std::string> texts_;
};

}  // namespace pinscope::cli
