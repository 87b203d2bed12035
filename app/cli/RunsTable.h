// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The runs of a recording as an aligned text table (pinscope-cli runs).
#include <string>
#include <vector>

#include "engine/record/RecordingReader.h"

namespace pinscope::cli {

// One row per run: number, start (UTC), device, host, configuration in brief, batches/s, length,
// and whether it finished.
std::string format_runs_table(const std::vector<RecordedRunInfo>& runs);

}  // namespace pinscope::cli
