// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/SteadyRate.h"

#include <algorithm>
#include <limits>

namespace pinscope {

double steady_batches_per_s(const Trace& trace, TimeNs from) {
    TraceReader reader(trace);
    TraceDelta delta;
    reader.poll(delta);
    std::uint64_t kernels = 0;
    TimeNs first = std::numeric_limits<TimeNs>::max();
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const Span& span : delta.spans) {
        if (span.stage != Stage::Compute || span.end <= from) continue;
        ++kernels;
        first = std::min(first, span.end);
        last = std::max(last, span.end);
    }
    if (kernels < 2 || last <= first) return 0;
    return static_cast<double>(kernels - 1) / (static_cast<double>(last - first) * 1e-9);
}

}  // namespace pinscope
