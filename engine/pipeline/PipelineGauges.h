// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Live levels of the pipeline, written by its threads and sampled into counters by the runner.
#include <atomic>
#include <cstdint>

namespace pinscope {

struct PipelineGauges {
    std::atomic<std::int64_t> in_flight{0};         // indices sent to workers, not yet taken
    std::atomic<std::int64_t> ready{0};             // batches done, waiting for the consumer
    std::atomic<std::uint64_t> h2d_bytes_done{0};   // bytes of completed host-to-device copies
    std::atomic<std::uint64_t> batches_done{0};     // batches whose compute completed
};

}  // namespace pinscope
