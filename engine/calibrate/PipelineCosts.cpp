// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/PipelineCosts.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/Device.h"
#include "engine/metrics/IntervalSet.h"
#include "engine/metrics/Median.h"
#include "engine/runner/Runner.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

// 1.5 s a size gives 30 or more frees of 128 MiB after the first third on the H100 VMs' 16 cores.
constexpr double kSeconds = 1.5;
constexpr double kQuickSeconds = 0.6;
constexpr std::uint32_t kSamplesPerBatch = 4;
constexpr std::uint32_t kRowBytes = 4096;  // a sample's inner dimension (u8), within the shape's limit

// Which run times a cost, and which of its spans are that cost.
struct CostRun {
    const char* what;
    PinMode mode;
    int workers;
    Stage stage;
    LaneKind lane;
};

CostRun run_for(PipelineCost cost) {
    switch (cost) {
        case PipelineCost::FreeWorkersBatch:
            return {"pipeline frees", PinMode::Pool, kPoolRunWorkers, Stage::Free, LaneKind::PinThread};
        case PipelineCost::HostRegister:
            return {"pipeline cudaHostRegister", PinMode::Register, 0, Stage::Pin, LaneKind::Consumer};
        case PipelineCost::HostAlloc: return {"pipeline cudaHostAlloc", PinMode::Alloc, 0, Stage::Alloc, LaneKind::Consumer};
        case PipelineCost::HostAllocWithWorkers:
            return {"pipeline cudaHostAlloc with workers", PinMode::Alloc, kAllocRunWorkers, Stage::Alloc,
                    LaneKind::PinThread};
    }
    throw std::invalid_argument("unknown pipeline cost");
}

LoaderConfig loader_config(const std::string& device, const CostRun& run, std::size_t bytes, double seconds) {
    if (bytes == 0 || bytes % (kSamplesPerBatch * kRowBytes) != 0)
        throw std::invalid_argument(std::string(run.what) + ": a size must be a multiple of 16 KiB, not " +
                                    std::to_string(bytes));
    LoaderConfig config;
    config.device = device;
    config.host = HostMode::Real;
    config.batch_size = kSamplesPerBatch;
    config.sample_shape = {static_cast<std::uint32_t>(bytes / kSamplesPerBatch / kRowBytes), kRowBytes};
    config.dtype = DType::U8;
    config.num_workers = run.workers;
    if (run.workers > 0) config.prefetch_factor = 2;
    config.pin_memory = true;
    config.pin_mode = run.mode;
    config.cpu_us_per_sample = 0;
    config.gpu_us_per_batch = 0;
    config.batches.reset();
    config.seconds = seconds;
    return config;
}

// Batch sizes each cost is measured at: every 4x from 2 MiB (quick: 2 and 32 MiB); for register 1
// and 1.5 MiB too, and for alloc 1, 1.5 and 1.94 MiB. One batch at a time the driver hands
// cudaHostAlloc back the block just freed below 2 MiB: 1.1 to 1.9 MB batches took 7 to 30 us in
// validate's cells on three H100 VMs (2026-11-27 and 28), where the probe, holding three blocks,
// took 770 to 1040; 1.8 MiB took 14 us on a VM whose calibrate read 655 at 2 MiB, so a point just
// under 2 MiB keeps the model from drawing a slope across that step. With workers it varied (8
// workers, 1.1 MB: 403 us against the probe's 493; one worker, 1.4 MB: 12 us), so the model keeps
// the probe's figure below the with-workers curve, which starts at 2 MiB.
std::vector<std::size_t> sizes_for(PipelineCost cost, bool quick) {
    if (quick) return {2 * kMiB, 32 * kMiB};
    if (cost == PipelineCost::HostRegister) return {kMiB, kMiB + kMiB / 2, 2 * kMiB, 8 * kMiB, 32 * kMiB, 128 * kMiB};
    if (cost == PipelineCost::HostAlloc)
        return {kMiB, kMiB + kMiB / 2, 2 * kMiB - kMiB / 16, 2 * kMiB, 8 * kMiB, 32 * kMiB, 128 * kMiB};
    return {2 * kMiB, 8 * kMiB, 32 * kMiB, 128 * kMiB};
}

bool alloc_waits_for_free(const DriverLock& lock) {
    return lock.during_free_host.host_alloc || lock.while_free_waits.host_alloc;
}

// When the consumer's cudaFreeHost calls (pin_mode alloc) ran.
IntervalSet consumer_frees(const std::vector<Span>& spans) {
    IntervalSet frees;
    for (const Span& span : spans)
        if (span.stage == Stage::Free && span.lane.kind == LaneKind::Consumer) frees.add(span.start, span.end);
    return frees;
}

}  // namespace

std::optional<double> median_cost_us(const std::vector<Span>& spans, PipelineCost cost, TimeNs settled,
                                     const DriverLock& driver_lock) {
    const CostRun run = run_for(cost);
    // Time the call spent behind another thread's call, which the model charges itself.
    const IntervalSet held = cost == PipelineCost::HostAllocWithWorkers && alloc_waits_for_free(driver_lock)
                                 ? consumer_frees(spans)
                                 : IntervalSet{};
    std::vector<double> spans_us;
    for (const Span& span : spans)
        if (span.stage == run.stage && span.lane.kind == run.lane && span.start >= settled)
            spans_us.push_back(static_cast<double>(span.duration() - held.length_in(span.start, span.end)) / 1e3);
    if (spans_us.empty()) return std::nullopt;
    return median(std::move(spans_us));
}

std::optional<double> median_worker_gb_per_s(const std::vector<Span>& spans, Stage stage, TimeNs settled) {
    std::vector<double> rates;
    for (const Span& span : spans)
        if (span.stage == stage && span.lane.kind == LaneKind::Worker && span.start >= settled && span.duration() > 0)
            rates.push_back(static_cast<double>(span.bytes) / static_cast<double>(span.duration()));
    if (rates.empty()) return std::nullopt;
    return median(std::move(rates));
}

namespace {

std::optional<SizeRun> run_at_size(const std::string& device, const CostRun& run, std::size_t bytes, double seconds) {
    Runner runner;
    try {
        runner.start(loader_config(device, run, bytes, seconds));
    } catch (const ConfigError& error) {
        // More than this machine's pinned budget would lock: the sizes below it still say.
        if (error.issue().field == "pinned_budget_bytes") return std::nullopt;
        throw;
    }
    runner.wait();
    runner.stop();
    const RunSummary summary = runner.summary();
    if (!summary.error.empty()) throw DeviceError(std::string(run.what) + " at " + format_size(bytes) + ": " + summary.error);
    TraceReader reader(*runner.trace());
    TraceDelta delta;
    reader.poll(delta);
    return SizeRun{std::move(delta.spans), runner.origin() + duration_ns(seconds * 1e9 / 3)};
}

}  // namespace

SizeCurve measure_pipeline_costs_us(const SizeRunner& run_at, PipelineCost cost, const std::vector<std::size_t>& sizes,
                                    double seconds, const DriverLock& driver_lock, WorkerRates* workers) {
    // A machine too slow (or too busy) to make the call after a short run's first third gets
    // runs twice and four times as long before the size is given up as failed.
    constexpr int kLongerRuns = 2;
    SizeCurve curve;
    for (const std::size_t bytes : sizes) {
        std::optional<SizeRun> measured;
        std::optional<double> us;
        double length = seconds;
        for (int attempt = 0; attempt <= kLongerRuns && !us; ++attempt, length *= 2) {
            measured = run_at(bytes, length);
            if (!measured) break;
            us = median_cost_us(measured->spans, cost, measured->settled, driver_lock);
        }
        if (!measured) continue;
        if (!us)
            throw std::runtime_error(std::string(run_for(cost).what) + " at " + format_size(bytes) +
                                     ": the run made no such call after its first third");
        curve.sizes_bytes.push_back(static_cast<double>(bytes));
        curve.values.push_back(*us);
        if (workers == nullptr) continue;
        for (const auto& [stage, rates] : {std::pair{Stage::Load, &workers->fill_gb_per_s},
                                           std::pair{Stage::Collate, &workers->collate_gb_per_s}})
            if (const std::optional<double> rate = median_worker_gb_per_s(measured->spans, stage, measured->settled)) {
                rates->sizes_bytes.push_back(static_cast<double>(bytes));
                rates->values.push_back(*rate);
            }
        if (const std::optional<double> free_us =
                median_cost_us(measured->spans, PipelineCost::FreeWorkersBatch, measured->settled, {})) {
            workers->batch_free_us.sizes_bytes.push_back(static_cast<double>(bytes));
            workers->batch_free_us.values.push_back(*free_us);
        }
    }
    return curve;
}

SizeCurve measure_pipeline_costs_us(const std::string& device, PipelineCost cost, const std::vector<std::size_t>& sizes,
                                    double seconds, const DriverLock& driver_lock, WorkerRates* workers) {
    const CostRun run = run_for(cost);
    return measure_pipeline_costs_us(
        [&](std::size_t bytes, double length) { return run_at_size(device, run, bytes, length); }, cost, sizes, seconds,
        driver_lock, workers);
}

void measure_pipeline_costs(const std::string& device, bool quick, HardwareProfile& profile) {
    const double seconds = quick ? kQuickSeconds : kSeconds;
    WorkerRates pool_workers;
    WorkerRates alloc_workers;
    using Step = std::tuple<PipelineCost, SizeCurve*, WorkerRates*>;
    for (const auto& [cost, curve, workers] :
         {Step{PipelineCost::FreeWorkersBatch, &profile.pipeline_free_us, &pool_workers},
          Step{PipelineCost::HostRegister, &profile.pipeline_host_register_us, nullptr},
          Step{PipelineCost::HostAlloc, &profile.pipeline_host_alloc_us, nullptr},
          Step{PipelineCost::HostAllocWithWorkers, &profile.pipeline_host_alloc_workers_us, &alloc_workers}})
        *curve = measure_pipeline_costs_us(device, cost, sizes_for(cost, quick), seconds, profile.driver_lock, workers);
    profile.pipeline_worker_fill_gb_per_s = std::move(pool_workers.fill_gb_per_s);
    profile.pipeline_worker_collate_gb_per_s = std::move(pool_workers.collate_gb_per_s);
    profile.pipeline_alloc_workers_fill_gb_per_s = std::move(alloc_workers.fill_gb_per_s);
    profile.pipeline_alloc_workers_collate_gb_per_s = std::move(alloc_workers.collate_gb_per_s);
    profile.pipeline_alloc_workers_free_us = std::move(alloc_workers.batch_free_us);
}

std::string pipeline_costs_text(const HardwareProfile& profile, const std::string& device, bool quick) {
    std::vector<std::string> measured;
    const auto add = [&](const SizeCurve& curve, const std::string& what) {
        if (!curve.empty()) measured.push_back(what + ", at " + format_size_list(curve.sizes_bytes));
    };
    add(profile.pipeline_free_us, "the pin thread's frees of workers' batches (pin_mode pool, " +
                                      std::to_string(kPoolRunWorkers) + " workers)");
    add(profile.pipeline_worker_fill_gb_per_s, "in the same runs, the workers' filling samples");
    add(profile.pipeline_worker_collate_gb_per_s, "and their collating them into a batch");
    add(profile.pipeline_host_register_us, "a batch's cudaHostRegister (pin_mode register, no workers)");
    add(profile.pipeline_host_alloc_us, "a batch's cudaHostAlloc (pin_mode alloc, no workers)");
    add(profile.pipeline_host_alloc_workers_us,
        "the same with " + std::to_string(kAllocRunWorkers) + " workers (on the pin thread" +
            (alloc_waits_for_free(profile.driver_lock) ? ", less its waits for the consumer's cudaFreeHost)"
                                                       : ")"));
    add(profile.pipeline_alloc_workers_fill_gb_per_s, "in those runs, the workers' filling samples");
    add(profile.pipeline_alloc_workers_collate_gb_per_s, "and their collating them into a batch");
    add(profile.pipeline_alloc_workers_free_us, "and the pin thread's frees of their batches");
    if (measured.empty()) return "";
    std::string text = "In short runs of the pipeline on " + device + " with the real host, " +
                       format_fixed(quick ? kQuickSeconds : kSeconds, 1) +
                       " s a size, the median after each run's first third of: ";
    for (std::size_t i = 0; i < measured.size(); ++i) text += (i == 0 ? "" : "; ") + measured[i];
    return text + ". ";
}

}  // namespace pinscope
