// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/trace/Counter.h"

namespace pinscope {

std::string_view to_string(Counter counter) {
    switch (counter) {
        case Counter::PinnedInUseBytes: return "pinned_in_use_bytes";
        case Counter::PinnedReservedBytes: return "pinned_reserved_bytes";
        case Counter::InFlightBatches: return "in_flight_batches";
        case Counter::ReadyQueueDepth: return "ready_queue_depth";
        case Counter::H2DGbPerS: return "h2d_gb_per_s";
        case Counter::MemAvailableBytes: return "mem_available_bytes";
        case Counter::SwapUsedBytes: return "swap_used_bytes";
    }
    return "?";
}

}  // namespace pinscope
