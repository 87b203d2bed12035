#pragma once
// How far a run's threads fell behind the model. Modelled work waits out the time the profile
// gives it; on a machine too slow to keep up (a loaded laptop, a sanitizer build) threads reach
// their waits late, and the run comes out slower than the profile predicts. Thread-safe.
#include <atomic>

#include "clock/SteadyClock.h"

namespace pinscope {

class ModelLag {
public:
    // One modelled wait of `modelled` ns that this machine began `late` ns after the model allowed.
    void add(TimeNs modelled, TimeNs late) {
        if (modelled > 0) modelled_.fetch_add(modelled, std::memory_order_relaxed);
        if (late > 0) late_.fetch_add(late, std::memory_order_relaxed);
    }
    // The late time's share of modelled and late time together: 0 when this machine kept up.
    double share() const {
        const double late = static_cast<double>(late_.load(std::memory_order_relaxed));
        const double total = late + static_cast<double>(modelled_.load(std::memory_order_relaxed));
        return total > 0 ? late / total : 0.0;
    }

private:
    std::atomic<TimeNs> modelled_{0};
    std::atomic<TimeNs> late_{0};
};

}  // namespace pinscope
