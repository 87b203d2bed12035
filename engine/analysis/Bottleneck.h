// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which resource bounds a run's throughput, and the arithmetic that shows it: each resource's
// utilisation over a range of the run, its cost per batch and the batches/s that cost allows.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pinscope {

enum class Resource : std::uint8_t {
    None,             // nothing ran in the range
    Workers,          // the loader workers: load and collate (and, pin_mode worker, their blocks)
    PinThread,        // the pin thread's copies into page-locked memory
    Consumer,         // the consumer's own work: without workers, loading each batch itself
    PageableStaging,  // the consumer held inside pageable copies (pin_memory off)
    PageLocking,      // page-locked allocation and freeing (Alloc and Free stages)
    CopyEngine,       // host-to-device copies (H2D spans)
    Compute,          // the kernels on the compute stream (with copy_stream compute, the copies too)
    BatchCredits,     // num_workers x prefetch_factor batches in flight
    PinnedBudget,     // pinned_budget_bytes: allocations waited for blocks to come back
};

// "pin_thread", "copy_engine", ...: the names summary.json uses.
std::string_view to_string(Resource resource);
// "the pin thread", "the copy engine", ...: as sentences say them.
std::string_view describe(Resource resource);

// One row of the table: a resource over the range.
struct ResourceUse {
    Resource resource = Resource::None;
    std::string name;            // "worker 2", "workers", "pin thread", "copy engine", ...
    double utilisation = 0;      // busy time / (lanes x wall time); for credits and budget, the share held
    double per_batch_s = 0;      // busy time per batch it handled in the range; 0 when it handled none
    std::uint32_t lanes = 1;     // how many batches it works on at once
    double bound_batches_per_s = 0;  // lanes / per_batch_s: what it allows at 100 %; 0 when unknown
    std::uint64_t batches = 0;   // batches it handled in the range
    friend bool operator==(const ResourceUse&, const ResourceUse&) = default;
};

struct Bottleneck {
    Resource resource = Resource::None;
    double utilisation = 0;
    double per_batch_s = 0;
    double bound_batches_per_s = 0;
    bool saturated = false;      // the bound resource was near 100 % (not merely the busiest)
    std::string evidence;        // the sentence: "Bound by the pin thread: busy 99 % of ..."
    // Every resource that did something in the range (each worker, then the aggregates).
    std::vector<ResourceUse> resources;
    friend bool operator==(const Bottleneck&, const Bottleneck&) = default;
};

}  // namespace pinscope
