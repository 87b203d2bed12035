// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one stage did for one batch on one lane: the unit of the trace.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/clock/TimeNs.h"

namespace pinscope {

enum class Stage : std::uint8_t {
    Load,      // dataset __getitem__: produce samples and do the per-sample CPU work
    Collate,   // stack the samples into one batch buffer
    Pin,       // copy (or register) the batch into page-locked memory
    Alloc,     // page-locked allocation or registration outside the caching pool
    Wait,      // the consumer waiting for the next batch: the GPU starves here
    Staging,   // host held inside a pageable host-to-device copy call
    Sync,      // host waiting on the device (blocking copy, device queue full)
    H2D,       // host-to-device copy on the copy stream
    Compute,   // the kernel on the compute stream
    Free,      // memory given back: a page-locked free or unregistration, or a batch's pageable buffer
};
inline constexpr int kStageCount = 10;

enum class LaneKind : std::uint8_t { Worker, PinThread, Consumer, CopyStream, ComputeStream };
inline constexpr int kLaneKindCount = 5;

struct Lane {
    LaneKind kind = LaneKind::Consumer;
    std::uint16_t index = 0;  // worker number; 0 for the other lanes
    friend bool operator==(const Lane&, const Lane&) = default;
};

struct Span {
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint64_t batch = 0;
    std::uint64_t bytes = 0;
    Stage stage = Stage::Load;
    Lane lane;
    std::int16_t cpu = -1;        // CPU the host thread ran on at the end of the span, -1 for GPU lanes
    std::int16_t numa_node = -1;  // NUMA node of that CPU, -1 when unknown
    TimeNs duration() const { return end - start; }
    friend bool operator==(const Span&, const Span&) = default;
};

std::string_view to_string(Stage stage);
std::string_view to_string(LaneKind kind);
// "worker 3", "pin thread", "consumer", "copy stream", "compute stream"
std::string lane_name(Lane lane);
bool is_device_lane(LaneKind kind);

}  // namespace pinscope
