#pragma once
// counters.csv: the sampled time series side by side, one row per distinct sample time.
#include <ostream>
#include <vector>

#include "trace/Counter.h"

namespace pinscope {

// Columns: time_s, then one per Counter in enum order, named by to_string(Counter). A counter
// without a sample at a row's time repeats its last value (empty before its first sample).
void write_counters_csv(std::ostream& out, const std::vector<CounterSample>& samples, TimeNs origin);

}  // namespace pinscope
