// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// counters.csv: the sampled time series side by side, one row per distinct sample time.
#include <array>
#include <optional>
#include <ostream>
#include <vector>

#include "engine/export/TimeOrderBuffer.h"
#include "engine/trace/Counter.h"

namespace pinscope {

// Columns: time_s, then one per Counter in enum order, named by to_string(Counter). A counter
// without a sample at a row's time repeats its last value (empty before its first sample).
// Written as the samples come, in time order (TimeOrderBuffer).
class CountersCsvWriter {
public:
    CountersCsvWriter(std::ostream& out, TimeNs origin);  // writes the header
    void add(const std::vector<CounterSample>& samples);
    void finish();  // the rest

private:
    struct TimeOf {
        TimeNs operator()(const CounterSample& sample) const { return sample.time; }
    };
    struct Less {
        bool operator()(const CounterSample& a, const CounterSample& b) const { return a.time < b.time; }
    };
    void take(const CounterSample& sample);
    void write_row();

    std::ostream& out_;
    TimeNs origin_;
    TimeOrderBuffer<CounterSample, Less, TimeOf> buffer_;
    std::array<std::optional<double>, kCounterCount> last_{};
    std::optional<TimeNs> row_time_;  // the row being filled: every sample at one time
};

void write_counters_csv(std::ostream& out, const std::vector<CounterSample>& samples, TimeNs origin);

}  // namespace pinscope
