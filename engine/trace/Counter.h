// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sampled time series: what the footprint and the queues looked like at a moment.
#include <cstdint>
#include <string_view>

#include "engine/trace/Span.h"

namespace pinscope {

enum class Counter : std::uint8_t {
    PinnedInUseBytes,     // page-locked bytes held by batches
    PinnedReservedBytes,  // page-locked bytes the pool holds, cached blocks and rounding included
    InFlightBatches,      // batch indices sent to workers and not yet taken by the consumer
    ReadyQueueDepth,      // batches done and waiting for the consumer (queue plus reorder buffer)
    H2DGbPerS,            // host-to-device rate over the last 100 ms
    MemAvailableBytes,    // the machine's MemAvailable (/proc/meminfo), every 100 ms
    SwapUsedBytes,        // the machine's swap in use, SwapTotal - SwapFree, every 100 ms
};
inline constexpr int kCounterCount = 7;

struct CounterSample {
    TimeNs time = 0;
    double value = 0;
    Counter counter = Counter::PinnedInUseBytes;
};

std::string_view to_string(Counter counter);  // "pinned_in_use_bytes", ...

}  // namespace pinscope
