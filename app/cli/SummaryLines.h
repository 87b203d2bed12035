// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lines run prints after the summary, which show prints again for a recorded run: what bounded
// the run, and what to try.
#include <string>

#include "engine/runner/RunRecord.h"

namespace pinscope::cli {

// "bottleneck      Bound by the pin thread: ..."; empty when the summary has none.
std::string bottleneck_line(const RunSummary& summary);
// One "try" line per suggestion: the change, the batches/s the emulated device predicts for it and
// for the run's own configuration, and why.
std::string advice_lines(const RunSummary& summary);

// With more than one segment (the run was reconfigured), a table of them: each one's time, its
// main figures and what changed as it began; empty otherwise.
std::string segment_lines(const RunSummary& summary);

}  // namespace pinscope::cli
