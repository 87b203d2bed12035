// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope --lesson NAME [--step K] --screenshot F, and --lesson NAME --handout F.pdf: the lesson
// opened in the window, its steps run one after the other as the Run button runs them, and the
// window saved once step K is revealed, or every step's answer and picture written as a handout.
#include "app/desktop/CommandLine.h"

namespace pinscope::desktop {

// Runs the event loop; the process's exit code (0 done, 1 a run or the file failed, 130 or 143
// when SIGINT or SIGTERM cut it short).
int run_headless_lesson(const CommandLine& line);

}  // namespace pinscope::desktop
