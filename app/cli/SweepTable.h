// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A sweep's results as an aligned text table, the row with the best batches/s marked.
#include <string>
#include <vector>

#include "engine/sweep/SweepCsv.h"

namespace pinscope::cli {

// batches/s as the table shows them: "412.3".
std::string format_batches_per_s(double value);

std::string format_sweep_table(const std::vector<SweepRow>& rows);

}  // namespace pinscope::cli
