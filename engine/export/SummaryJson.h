// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run's summary as JSON (summary.json, the Chrome trace's otherData) and as the text the CLI
// prints.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/runner/RunRecord.h"

namespace pinscope {

// Rates and fractions (0..1) at the top level, then device, host, config, the pinned pool's stats
// under PyTorch's names, warnings and error (null when the run succeeded), and "segments": each
// stretch under one configuration with its own configuration and figures.
nlohmann::json summary_to_json(const RunSummary& summary);

// summary.json's "bottleneck" object (a segment's too).
nlohmann::json bottleneck_to_json(const Bottleneck& bottleneck);

// One screen of plain text (under 25 lines, no colour codes), lines ending in '\n'.
std::string format_summary(const RunSummary& summary);

}  // namespace pinscope
