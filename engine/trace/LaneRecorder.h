// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A thread's pen for the trace: it knows the lane and stamps each span with the CPU and NUMA
// node the thread is on.
#include <cstdint>

#include "engine/trace/Trace.h"

namespace pinscope {

class LaneRecorder {
public:
    LaneRecorder(Trace& trace, Lane lane) : trace_(&trace), lane_(lane) {}
    void record(Stage stage, std::uint64_t batch, std::uint64_t bytes, TimeNs start, TimeNs end);
    Lane lane() const { return lane_; }

private:
    Trace* trace_;
    Lane lane_;
};

}  // namespace pinscope
