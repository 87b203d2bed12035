// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// segments.csv: one row per segment of the run (a stretch under one configuration): its number,
// time, what changed as it began, every figure of the metric table (engine/metrics/MetricFields.h),
// its pinned footprint and bottleneck, and its configuration as JSON.
#include <ostream>

#include "engine/runner/RunRecord.h"

namespace pinscope {

void write_segments_csv(std::ostream& out, const RunSummary& summary);

}  // namespace pinscope
