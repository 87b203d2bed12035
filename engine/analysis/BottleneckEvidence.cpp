// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/BottleneckEvidence.h"

#include <algorithm>

#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

std::string percent(double share) { return format_fixed(100.0 * std::clamp(share, 0.0, 1.0), 0) + " %"; }

std::string ms(double seconds) {
    const double value = seconds * 1e3;
    return format_fixed(value, value < 10 ? 2 : 1) + " ms";
}

std::string per_s(double batches_per_s) { return format_fixed(batches_per_s, 0) + " batches/s"; }

std::string at_most(const ResourceUse& use) {
    return use.bound_batches_per_s > 0 ? "at most " + per_s(use.bound_batches_per_s) : "no batch finished";
}

std::string batches_of(const EvidenceFacts& f) { return memory_text(f.batch_bytes) + " batches"; }

std::string rate(const EvidenceFacts& f) {
    return f.rate_bytes_per_s > 0 ? " at " + rate_text(f.rate_bytes_per_s, 1) : std::string();
}

std::string body(const EvidenceFacts& f) {
    const ResourceUse& u = f.use;
    const std::string busy = "busy " + percent(u.utilisation) + " of " + f.range;
    switch (f.resource) {
        case Resource::Workers:
            return std::to_string(f.workers) + (f.workers == 1 ? " worker " : " workers ") + busy +
                   " loading and collating " + batches_of(f) + " (" + ms(u.per_batch_s) + " each, " +
                   std::to_string(f.workers) + " at a time: " + at_most(u) + ")";
        case Resource::PinThread:
            return busy + " copying " + batches_of(f) + " into page-locked memory" + rate(f) + " (" +
                   ms(u.per_batch_s) + " per batch in all, " + at_most(u) + ")";
        case Resource::PageLocking:
            return f.lane + " is " + busy + ", " + percent(f.part_share) +
                   " of it allocating, registering or freeing page-locked memory (" + ms(f.part_s) + " per " +
                   memory_text(f.batch_bytes) + " batch, " + ms(u.per_batch_s) + " in all: " + at_most(u) + ")";
        case Resource::PageableStaging:
            return f.lane + " is " + busy + ", " + percent(f.part_share) + " of it held in pageable copies of " +
                   batches_of(f) + rate(f) + " (" + ms(f.part_s) + " each" +
                   (f.part_s < 0.98 * u.per_batch_s ? ", " + ms(u.per_batch_s) + " per batch in all" : std::string()) +
                   ": " + at_most(u) + ")";
        case Resource::Consumer:
            return "it loads each batch itself (num_workers 0) and is " + busy + " (" + ms(u.per_batch_s) +
                   " per " + memory_text(f.batch_bytes) + " batch: " + at_most(u) + ")";
        case Resource::CopyEngine:
            return busy + " copying " + batches_of(f) + rate(f) + " (" + ms(u.per_batch_s) + " each, " + at_most(u) +
                   ")";
        case Resource::Compute:
            if (f.copy_in_series)
                return "the compute stream is " + busy + " (" + ms(f.copy_s) + " copy + " + ms(f.kernel_s) +
                       " kernel per batch, in series on one stream: " + at_most(u) + ")";
            return "the compute stream is " + busy + " running kernels (" + ms(u.per_batch_s) + " each, " +
                   at_most(u) + ")";
        case Resource::BatchCredits:
            return format_fixed(f.mean_held, 1) + " of " + std::to_string(u.lanes) + " in flight on average over " +
                   f.range + " (num_workers " + std::to_string(f.workers) + " x prefetch_factor " +
                   std::to_string(f.prefetch) + "), each held " + ms(u.per_batch_s) +
                   " from being sent to being taken: " + at_most(u);
        case Resource::PinnedBudget:
            return memory_text(static_cast<double>(f.budget_bytes)) + " holds " + std::to_string(f.blocks) +
                   (f.blocks == 1 ? " block of " : " blocks of ") + memory_text(static_cast<double>(f.block_bytes)) +
                   ", " + format_fixed(f.mean_held, 1) + " in use on average over " + f.range + ", each held " +
                   ms(u.per_batch_s) + ": " + at_most(u) + "; " + std::to_string(f.budget_waits) +
                   (f.budget_waits == 1 ? " allocation" : " allocations") + " waited for the budget";
        case Resource::None:
            break;
    }
    return {};
}

}  // namespace

std::string evidence_sentence(const EvidenceFacts& f) {
    if (f.resource == Resource::None) return "Nothing ran in " + f.range + ".";
    std::string sentence = f.saturated ? "Bound by " + std::string(describe(f.resource)) + ": "
                                       : "Nothing is near 100 %; the busiest is " + std::string(describe(f.resource)) + ": ";
    sentence += body(f) + ".";
    if (f.resource == Resource::Compute)
        sentence += " The loader kept up: the GPU was busy " + percent(f.gpu_busy) + " of the time.";
    else
        sentence += " The GPU waited " + percent(f.gpu_starved) + " of the time.";
    return sentence;
}

}  // namespace pinscope
