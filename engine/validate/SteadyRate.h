// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's steady throughput for validate: batches per second from the kernels that ended after
// `from`, as (n - 1) over the time from the first of them to the last. Counting the batches that
// end in a window instead is off by up to one batch, 10 % of a slow cell's figure in a short run.
#include "engine/trace/Trace.h"

namespace pinscope {

// 0 when fewer than two kernels ended after `from`.
double steady_batches_per_s(const Trace& trace, TimeNs from);

}  // namespace pinscope
