#pragma once
// Puts CUDA event times on the host's steady clock. A reference event is recorded on an idle stream
// and waited for; the host times just before and just after bracket the moment it completed, and
// the narrowest of a few brackets is kept. Ops are timed against the newest reference (re-anchored
// every second so float milliseconds stay exact) and scaled by the GPU-to-host clock rate measured
// since the first reference, so long runs do not drift.
#include <cuda_runtime_api.h>

#include <memory>

#include "trace/Span.h"

namespace pinscope {

struct ClockAnchor {
    cudaEvent_t event = nullptr;
    TimeNs host_ns = 0;       // steady-clock time of `event`, the middle of its bracket
    TimeNs half_width_ns = 0; // how far the real time can be from host_ns
    double rate = 1.0;        // host nanoseconds per GPU nanosecond
    ~ClockAnchor();
};

class CudaClock {
public:
    explicit CudaClock(int ordinal);
    ~CudaClock();
    CudaClock(const CudaClock&) = delete;
    CudaClock& operator=(const CudaClock&) = delete;

    // The reference to time new events against; re-anchors when the current one is a second old.
    // Call from the thread that records the events, before recording them.
    std::shared_ptr<const ClockAnchor> anchor();
    // The host time of a completed event recorded after `anchor` was taken.
    TimeNs to_host(const ClockAnchor& anchor, cudaEvent_t event) const;
    TimeNs uncertainty_ns() const;

private:
    std::shared_ptr<const ClockAnchor> take_anchor();

    int ordinal_;
    cudaStream_t stream_ = nullptr;
    std::shared_ptr<const ClockAnchor> first_;
    std::shared_ptr<const ClockAnchor> current_;
};

}  // namespace pinscope
