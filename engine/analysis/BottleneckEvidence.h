// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sentence that names a bottleneck with the arithmetic behind it.
#include <cstdint>
#include <string>

#include "engine/analysis/Bottleneck.h"

namespace pinscope {

// What the sentence states, gathered by find_bottleneck.
struct EvidenceFacts {
    Resource resource = Resource::None;
    bool saturated = false;
    ResourceUse use;               // the bound server (for page-locking and staging, the lane they ran on)
    std::string lane;              // "the pin thread", "the consumer": where page-locking or staging ran
    double part_share = 0;         // share of the lane's busy time in the named part
    double part_s = 0;             // the part's time per batch
    double rate_bytes_per_s = 0;   // the copy rate of the named work (pin copies, staging, H2D)
    double batch_bytes = 0;
    std::uint32_t workers = 0;
    std::uint32_t prefetch = 0;
    bool copy_in_series = false;   // copy_stream compute: copy and kernel on one stream
    double copy_s = 0;             // per batch, with copy_in_series
    double kernel_s = 0;
    double mean_held = 0;          // credits in flight, or budget blocks in use, on average
    std::uint64_t budget_bytes = 0;
    std::uint64_t block_bytes = 0;
    std::uint64_t blocks = 0;
    std::uint64_t budget_waits = 0;
    double gpu_starved = 0;
    double gpu_busy = 0;
    std::string range;             // "the last second", "the run"
};

std::string evidence_sentence(const EvidenceFacts& facts);

}  // namespace pinscope
