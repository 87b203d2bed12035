// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope --screenshot: builds the window, runs the configuration for a while, saves the
// screenshot and the exports asked for, and exits. Also what ./pinscope.sh run does without a
// display, and what the Xvfb test runs.
#include "app/desktop/CommandLine.h"

namespace pinscope::desktop {

// Runs the event loop; returns the process's exit code (0 done, 1 the run or a file failed, 130 or
// 143 when SIGINT or SIGTERM ended it early: the screenshot and exports are written first).
int run_headless(const CommandLine& line);

}  // namespace pinscope::desktop
