// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How far a run's threads fell behind the model. Modelled work waits out the time the profile
// gives it; on a machine too slow to keep up (a loaded laptop, a sanitizer build) threads reach
// their waits late, and the run comes out slower than the profile predicts. Thread-safe.
#include <atomic>

#include "engine/clock/SteadyClock.h"

namespace pinscope {

class ModelLag {
public:
    // A modelled wait that this machine began `late` ns after the model allowed (ignored if <= 0).
    void add(TimeNs late) {
        if (late > 0) late_.fetch_add(late, std::memory_order_relaxed);
    }
    // The late time of all threads together, over `wall` ns of the run: at most the share of the
    // run's throughput that this machine's slowness cost (less where threads ran late side by side).
    double share_of(TimeNs wall) const {
        return wall > 0 ? static_cast<double>(late_.load(std::memory_order_relaxed)) / static_cast<double>(wall) : 0.0;
    }

private:
    std::atomic<TimeNs> late_{0};
};

}  // namespace pinscope
