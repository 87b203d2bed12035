// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/BottleneckFinder.h"

#include <algorithm>

#include "engine/analysis/BottleneckEvidence.h"
#include "engine/config/PinnedBudget.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

constexpr double kNs = 1e-9;
// A limit (credits, budget) is named only when it was held this fully.
constexpr double kCreditsHeld = 0.9;
constexpr double kBudgetHeld = 0.5;
// The named part of a lane's work (page-locking, staging) takes at least this share of it.
constexpr double kMainPart = 0.5;

double seconds(TimeNs ns) { return static_cast<double>(ns) * kNs; }

// A server: `busy` over `lanes` lanes, `batches` handled in the range.
ResourceUse server(Resource resource, std::string name, TimeNs busy, std::uint32_t lanes, std::uint64_t batches,
                   TimeNs wall) {
    ResourceUse use;
    use.resource = resource;
    use.name = std::move(name);
    use.lanes = std::max<std::uint32_t>(lanes, 1);
    use.batches = batches;
    if (wall > 0) use.utilisation = std::clamp(seconds(busy) / (seconds(wall) * use.lanes), 0.0, 1.0);
    if (batches > 0 && busy > 0) {
        use.per_batch_s = seconds(busy) / static_cast<double>(batches);
        use.bound_batches_per_s = use.lanes / use.per_batch_s;
    }
    return use;
}

// A limit of `limit` units (credits, blocks), `mean_held` of them held on average: by Little's law
// each is held mean_held / throughput seconds per batch.
ResourceUse limit_use(Resource resource, std::string name, double mean_held, std::uint64_t limit,
                      double batches_per_s, std::uint64_t batches) {
    ResourceUse use;
    use.resource = resource;
    use.name = std::move(name);
    use.lanes = static_cast<std::uint32_t>(std::max<std::uint64_t>(limit, 1));
    use.batches = batches;
    use.utilisation = limit > 0 ? std::clamp(mean_held / static_cast<double>(limit), 0.0, 1.0) : 0.0;
    if (batches_per_s > 0 && mean_held > 0) {
        use.per_batch_s = mean_held / batches_per_s;
        use.bound_batches_per_s = use.lanes / use.per_batch_s;
    }
    return use;
}

double rate_of(const StageSums& sums) { return sums.busy > 0 ? sums.bytes / seconds(sums.busy) : 0.0; }

const ResourceUse* find(const std::vector<ResourceUse>& table, Resource resource) {
    for (const ResourceUse& use : table)
        if (use.resource == resource && use.name != "page-locking" && use.name != "pageable staging") return &use;
    return nullptr;
}

}  // namespace

std::string range_text(double window_s, bool whole_run) {
    if (whole_run) return "the run";
    if (window_s == 1.0) return "the last second";
    return "the last " + format_shortest(window_s) + " s";
}

Bottleneck find_bottleneck(const SpanUsage& usage, const Metrics& metrics, const LoaderConfig& config,
                           std::uint64_t budget_bytes, const std::string& range) {
    const TimeNs wall = usage.wall();
    const auto workers = static_cast<std::uint32_t>(
        std::max<std::size_t>(config.num_workers, usage.worker_busy.size()));
    const std::uint64_t batches_done = usage.at(LaneKind::ComputeStream, Stage::Compute).ended;
    const double rate = metrics.batches_per_s;
    const bool pageable = !config.pin_memory;
    const bool in_series = config.copy_stream == CopyStream::Compute;

    Bottleneck result;
    std::vector<ResourceUse>& table = result.resources;
    for (std::size_t w = 0; w < usage.worker_busy.size(); ++w)
        table.push_back(server(Resource::Workers, "worker " + std::to_string(w), usage.worker_busy[w], 1, 0, wall));

    // The servers, each handling every batch once.
    std::vector<ResourceUse> servers;
    if (workers > 0)
        servers.push_back(server(Resource::Workers, "workers", usage.busy(LaneKind::Worker), workers,
                                 usage.at(LaneKind::Worker, Stage::Collate).ended, wall));
    const TimeNs pin_busy = usage.busy(LaneKind::PinThread);
    if (pin_busy > 0 || config.pins_in_pin_thread())
        servers.push_back(server(Resource::PinThread, "pin thread", pin_busy, 1,
                                 usage.at(LaneKind::PinThread, Stage::Pin).ended, wall));
    // The consumer's own work: not its waits for a batch or for the device.
    const TimeNs consumer_busy = usage.busy(LaneKind::Consumer) - usage.busy(LaneKind::Consumer, {Stage::Wait, Stage::Sync});
    const std::uint64_t consumed = config.num_workers == 0 ? usage.at(LaneKind::Consumer, Stage::Collate).ended
                                                           : usage.at(LaneKind::Consumer, Stage::Wait).ended;
    servers.push_back(server(Resource::Consumer, "consumer", consumer_busy, 1, consumed, wall));
    const StageSums& copies = usage.at(LaneKind::CopyStream, Stage::H2D);
    servers.push_back(server(Resource::CopyEngine, "copy engine", copies.busy, 1, copies.ended, wall));
    const StageSums& kernels = usage.at(LaneKind::ComputeStream, Stage::Compute);
    servers.push_back(server(Resource::Compute, "compute stream", kernels.busy + (in_series ? copies.busy : 0), 1,
                             kernels.ended, wall));
    table.insert(table.end(), servers.begin(), servers.end());

    // Parts of the host lanes' work, for the table.
    const TimeNs locking = usage.busy(LaneKind::PinThread, {Stage::Alloc, Stage::Free}) +
                           usage.busy(LaneKind::Worker, {Stage::Alloc}) +
                           usage.busy(LaneKind::Consumer, {Stage::Alloc}) +
                           (pageable ? 0 : usage.busy(LaneKind::Consumer, {Stage::Free})) +
                           (config.pin_mode == PinMode::Register ? usage.busy(LaneKind::PinThread, {Stage::Pin}) : 0);
    table.push_back(server(Resource::PageLocking, "page-locking", locking, 1, batches_done, wall));
    const StageSums& staging = usage.at(LaneKind::Consumer, Stage::Staging);
    table.push_back(server(Resource::PageableStaging, "pageable staging", staging.busy, 1, staging.ended, wall));

    // The limits.
    const std::uint32_t credits = config.num_workers > 0 ? config.max_outstanding() : 0;
    const double mean_in_flight =
        usage.in_flight_samples > 0 ? usage.in_flight_sum / static_cast<double>(usage.in_flight_samples) : 0.0;
    if (credits > 0)
        table.push_back(limit_use(Resource::BatchCredits, "batch credits", mean_in_flight, credits, rate, batches_done));
    const std::uint64_t block = worst_case_pinned(config).block_bytes;
    const std::uint64_t blocks = block > 0 ? budget_bytes / block : 0;
    const double mean_blocks = usage.pinned_samples > 0 && block > 0
                                   ? usage.pinned_in_use_sum / static_cast<double>(usage.pinned_samples) /
                                         static_cast<double>(block)
                                   : 0.0;
    if (config.pin_memory && blocks > 0)
        table.push_back(limit_use(Resource::PinnedBudget, "pinned budget", mean_blocks, blocks, rate, batches_done));

    EvidenceFacts facts;
    facts.range = range;
    facts.batch_bytes = static_cast<double>(config.batch_bytes());
    facts.workers = config.num_workers;
    facts.prefetch = config.effective_prefetch_factor();
    facts.gpu_starved = metrics.gpu_starved;
    facts.gpu_busy = metrics.gpu_busy;
    if (wall <= 0 || (usage.busy(LaneKind::ComputeStream) == 0 && usage.busy(LaneKind::Consumer) == 0 &&
                      usage.busy(LaneKind::Worker) == 0)) {
        result.evidence = evidence_sentence(facts);
        return result;
    }

    const ResourceUse& top = *std::max_element(servers.begin(), servers.end(), [](const auto& a, const auto& b) {
        return a.utilisation < b.utilisation;
    });
    const ResourceUse* budget = find(table, Resource::PinnedBudget);
    const ResourceUse* credit = find(table, Resource::BatchCredits);
    ResourceUse named = top;
    facts.saturated = top.utilisation >= kSaturated - 1e-9;  // 80 % of a range reads 0.7999... in floating point
    if (!facts.saturated && budget != nullptr && usage.budget_waits > 0 && budget->utilisation >= kBudgetHeld) {
        named = *budget;
        facts.saturated = true;
    } else if (!facts.saturated && credit != nullptr && credit->utilisation >= kCreditsHeld) {
        named = *credit;
        facts.saturated = true;
    }
    facts.resource = named.resource;
    facts.use = named;

    // A host lane is named by what takes most of its time: page-locking, or pageable staging.
    const auto share = [](TimeNs part, TimeNs whole) { return whole > 0 ? seconds(part) / seconds(whole) : 0.0; };
    const auto per_batch = [&](TimeNs part) { return named.batches > 0 ? seconds(part) / static_cast<double>(named.batches) : 0.0; };
    switch (named.resource) {
        case Resource::PinThread: {
            const TimeNs lane_locking =
                usage.busy(LaneKind::PinThread, {Stage::Alloc, Stage::Free}) +
                (config.pin_mode == PinMode::Register ? usage.busy(LaneKind::PinThread, {Stage::Pin}) : 0);
            if (share(lane_locking, pin_busy) >= kMainPart) {
                facts.resource = Resource::PageLocking;
                facts.lane = "the pin thread";
                facts.part_share = share(lane_locking, pin_busy);
                facts.part_s = per_batch(lane_locking);
            } else {
                facts.rate_bytes_per_s = rate_of(usage.at(LaneKind::PinThread, Stage::Pin));
            }
            break;
        }
        case Resource::Consumer: {
            // Its work in three parts; the largest names it.
            const TimeNs held = staging.busy + (pageable ? usage.busy(LaneKind::Consumer, {Stage::Free}) : 0);
            const TimeNs lane_locking = usage.busy(LaneKind::Consumer, {Stage::Alloc}) +
                                        (pageable ? 0 : usage.busy(LaneKind::Consumer, {Stage::Free}));
            const TimeNs loading = consumer_busy - held - lane_locking;
            facts.lane = "the consumer";
            if (held > loading && held >= lane_locking) {
                facts.resource = Resource::PageableStaging;
                facts.part_share = share(held, consumer_busy);
                facts.part_s = staging.ended > 0 ? seconds(held) / static_cast<double>(staging.ended) : 0.0;
                facts.rate_bytes_per_s = rate_of(staging);
            } else if (lane_locking > loading) {
                facts.resource = Resource::PageLocking;
                facts.part_share = share(lane_locking, consumer_busy);
                facts.part_s = per_batch(lane_locking);
            }
            break;
        }
        case Resource::CopyEngine: facts.rate_bytes_per_s = rate_of(copies); break;
        case Resource::Compute:
            facts.copy_in_series = in_series;
            if (kernels.ended > 0) {
                facts.kernel_s = seconds(kernels.busy) / static_cast<double>(kernels.ended);
                facts.copy_s = copies.ended > 0 ? seconds(copies.busy) / static_cast<double>(copies.ended) : 0.0;
            }
            break;
        case Resource::BatchCredits: facts.mean_held = mean_in_flight; break;
        case Resource::PinnedBudget:
            facts.mean_held = mean_blocks;
            facts.budget_bytes = budget_bytes;
            facts.block_bytes = block;
            facts.blocks = blocks;
            facts.budget_waits = usage.budget_waits;
            break;
        default: break;
    }
    result.resource = facts.resource;
    result.utilisation = named.utilisation;
    result.per_batch_s = named.per_batch_s;
    result.bound_batches_per_s = named.bound_batches_per_s;
    result.saturated = facts.saturated;
    result.evidence = evidence_sentence(facts);
    return result;
}

}  // namespace pinscope
