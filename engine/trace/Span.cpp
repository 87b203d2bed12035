// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/trace/Span.h"

namespace pinscope {

std::string_view to_string(Stage stage) {
    switch (stage) {
        case Stage::Load: return "load";
        case Stage::Collate: return "collate";
        case Stage::Pin: return "pin";
        case Stage::Alloc: return "alloc";
        case Stage::Wait: return "wait";
        case Stage::Staging: return "staging";
        case Stage::Sync: return "sync";
        case Stage::H2D: return "h2d";
        case Stage::Compute: return "compute";
        case Stage::Free: return "free";
    }
    return "?";
}

std::string_view to_string(LaneKind kind) {
    switch (kind) {
        case LaneKind::Worker: return "worker";
        case LaneKind::PinThread: return "pin thread";
        case LaneKind::Consumer: return "consumer";
        case LaneKind::CopyStream: return "copy stream";
        case LaneKind::ComputeStream: return "compute stream";
    }
    return "?";
}

std::string lane_name(Lane lane) {
    std::string name(to_string(lane.kind));
    if (lane.kind == LaneKind::Worker) name += " " + std::to_string(lane.index);
    return name;
}

bool is_device_lane(LaneKind kind) {
    return kind == LaneKind::CopyStream || kind == LaneKind::ComputeStream;
}

}  // namespace pinscope
