// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Puts CUDA event times on the host's steady clock. A reference event is recorded on an idle stream
// and waited for; the host times just before and just after bracket the moment it completed, and
// the narrowest of a few brackets is kept. Ops are timed against the newest reference (re-anchored
// every 100 ms for the first 2 s, then every second) and scaled by the GPU-to-host clock rate
// measured since the first reference, so long runs do not drift.
#include <cuda_runtime_api.h>

#include <memory>

#include "engine/trace/Span.h"

namespace pinscope {

struct ClockAnchor {
    cudaEvent_t event = nullptr;
    TimeNs host_ns = 0;       // steady-clock time of `event`, the middle of its bracket
    TimeNs half_width_ns = 0; // how far the real time can be from host_ns
    double rate = 1.0;        // host nanoseconds per GPU nanosecond
    double rate_error = 0;    // how far `rate` can be off, relative (from the two brackets it spans)
    TimeNs period_ns = 0;     // how long it is the reference before the next one is taken
    ~ClockAnchor();
};

class CudaClock {
public:
    explicit CudaClock(int ordinal);
    ~CudaClock();
    CudaClock(const CudaClock&) = delete;
    CudaClock& operator=(const CudaClock&) = delete;

    // The reference to time new events against; re-anchors when the current one's period is over.
    // Call from the thread that records the events, before recording them.
    std::shared_ptr<const ClockAnchor> anchor();
    // The host time of a completed event recorded after `anchor` was taken.
    TimeNs to_host(const ClockAnchor& anchor, cudaEvent_t event) const;
    // How far a converted time can be from the truth: the widest bracket taken, the rate's error
    // over a re-anchoring period, and the events' timer resolution.
    TimeNs uncertainty_ns() const;

private:
    std::shared_ptr<const ClockAnchor> take_anchor();

    int ordinal_;
    cudaStream_t stream_ = nullptr;
    std::shared_ptr<const ClockAnchor> first_;
    std::shared_ptr<const ClockAnchor> current_;
    TimeNs widest_half_width_ns_ = 0;  // ops keep the anchor of their issue, which may be an older one
};

}  // namespace pinscope
