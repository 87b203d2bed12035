// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/Calibration.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/bandwidth/TimerSweep.h"
#include "engine/calibrate/IdleHostReading.h"
#include "engine/calibrate/PipelineCosts.h"
#include "engine/host/HostMeasurement.h"
#include "engine/config/ConfigError.h"
#include "engine/export/ExportFormat.h"
#include "engine/files/AtomicFile.h"
#include "engine/metrics/Median.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

namespace pinscope {

namespace {

constexpr std::size_t kMinCopyBytes = 64 * 1024;
constexpr std::size_t kMaxCopyBytes = std::size_t{1} << 30;
constexpr std::size_t kHoldBytes = 16 * kMiB;  // the size the h200-pcie5 profile states the pageable hold at
// Dense from 1 to 8 MiB: there cudaHostAlloc turns from the driver's cached blocks (2 us at 1 MiB on
// the H200 and the H100) to mapping and locking every page (0.6 ms at 2 MiB), a bend no
// interpolation finds. On the H100 a 1.4 MB batch's cudaHostAlloc took 0.85 ms, more than 2 MiB's,
// where the curve through 1 and 2 MiB said 0.24 ms; its cudaFreeHost 0.29 ms, again 2 MiB's.
constexpr std::array<std::size_t, 9> kCostSizes{kMiB,      kMiB + kMiB / 16, kMiB + kMiB / 2,        2 * kMiB, 4 * kMiB,
                                                8 * kMiB,  16 * kMiB,        kCalibrationBatchBytes, 128 * kMiB};
// Batch sizes a worker's rates are measured at (validate draws batches from 1 to 256 MB). 31 and
// 33 MiB straddle glibc's largest mmap threshold (32 MiB), above which the allocator's batches are
// always new pages, a step no interpolation between 16 MiB and calibrate's batch finds.
constexpr std::array<std::size_t, 10> kBatchLoopSizes{kMiB,      2 * kMiB,  4 * kMiB,   8 * kMiB,   16 * kMiB,
                                                      24 * kMiB, 31 * kMiB, 33 * kMiB, 128 * kMiB, 256 * kMiB};
constexpr std::array<std::size_t, 2> kQuickBatchLoopSizes{kMiB, 8 * kMiB};
constexpr std::size_t kBatchLoopBytes = 512 * kMiB;  // copied per size and round, within 6 to 32 batches
// Where calibrate times a worker's pageable copy under load besides its own batch, ascending: a
// small batch, and one far beyond any cache (256 MiB), where the sweep's pageable copy reads memory
// too, so that a handed-over batch's copy slows less against it than calibrate's batch does
// against its own; and between them, where those three alone left the staging up to a quarter off.
constexpr std::array<std::size_t, 5> kPageableSizes{2 * kMiB, 8 * kMiB, 16 * kMiB, 96 * kMiB, 256 * kMiB};
constexpr int kMemcpySamples = 5;
constexpr int kLoadRounds = 3;
constexpr double kSweepShare = 0.8;  // of the progress bar: the copy sweep takes most of the time

std::string waits_text(const PageLockingWaits& waits) {
    std::string text;
    for (auto [name, flag] : {std::pair{"cudaHostAlloc", waits.host_alloc}, std::pair{"cudaFreeHost", waits.free_host},
                              std::pair{"cudaHostRegister", waits.host_register},
                              std::pair{"cudaHostUnregister", waits.host_unregister}})
        if (flag) text += (text.empty() ? "" : ", ") + std::string(name);
    return text.empty() ? "none does" : text + " did";
}

// "cudaHostAlloc and cudaMemcpyAsync did"; "none did".
std::string waiters_text(const DriverWaiters& waiters) {
    std::vector<std::string> calls;
    for (const DriverWaiterField& call : kDriverWaiterFields)
        if (waiters.*call.flag) calls.emplace_back(call.call);
    return calls.empty() ? "none did" : format_list(calls) + " did";
}

std::string driver_lock_text(const DriverLock& lock, const PageLockingWaits& waits) {
    std::string text = "which calls from one thread wait while another is inside a cudaHostAlloc of 512 MiB (" +
                       waiters_text(lock.during_host_alloc) + "), a cudaFreeHost of 512 MiB (" +
                       waiters_text(lock.during_free_host) + "), a cudaHostRegister of 512 MiB (" +
                       waiters_text(lock.during_host_register) + "), a cudaHostUnregister of 512 MiB (" +
                       waiters_text(lock.during_host_unregister) + ")";
    if (waits.free_host) text += ", a cudaFreeHost waiting for a 50 ms kernel (" + waiters_text(lock.while_free_waits) + ")";
    if (waits.host_unregister)
        text += ", a cudaHostUnregister waiting for a 50 ms kernel (" + waiters_text(lock.while_unregister_waits) + ")";
    return text;
}

std::vector<std::size_t> copy_sizes(bool quick) {
    if (!quick) return bandwidth_sizes(kMinCopyBytes, kMaxCopyBytes);
    std::vector<std::size_t> sizes;
    for (std::size_t size = kMinCopyBytes; size <= kMaxCopyBytes; size *= 4) sizes.push_back(size);
    return sizes;
}

// The batch sizes measured, kCalibrationBatchBytes among them, ascending.
std::vector<std::size_t> batch_loop_sizes(const CalibrationOptions& options) {
    std::vector<std::size_t> sizes = options.batch_loop_sizes;
    if (sizes.empty() && options.quick) sizes.assign(kQuickBatchLoopSizes.begin(), kQuickBatchLoopSizes.end());
    if (sizes.empty()) sizes.assign(kBatchLoopSizes.begin(), kBatchLoopSizes.end());
    sizes.push_back(kCalibrationBatchBytes);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

// What the batch loops give: the rates at each batch size as factors against those at calibrate's
// batch, and the cost of the consumer freeing its own batch at each size.
struct BatchLoopResults {
    HostSizeFactors factors;
    SizeCurve free_allocated_us;
};

// The batch loops at each size, in kLoadRounds interleaved rounds (quick: one), each figure the
// median of its rounds'.
BatchLoopResults measure_batch_loops(const std::vector<std::size_t>& sizes, bool quick) {
    BatchLoopResults results;
    HostSizeFactors& factors = results.factors;
    const int rounds = quick ? 1 : kLoadRounds;
    const auto reference = static_cast<std::size_t>(std::find(sizes.begin(), sizes.end(), kCalibrationBatchBytes) - sizes.begin());
    std::vector<std::vector<double>> collate(sizes.size()), collate_new_pages(sizes.size()), pin(sizes.size()),
        free_allocated(sizes.size());
    for (int round = 0; round < rounds; ++round) {
        // Pin from the loop of the workers' batches, whose pin copy reads a batch collated earlier,
        // as the pin thread does.
        std::vector<BatchLoopRates> allocated, new_pages;
        for (const std::size_t bytes : sizes) {
            const int batches = static_cast<int>(std::clamp<std::size_t>(kBatchLoopBytes / bytes, 6, 32));
            allocated.push_back(measure_batch_loop(bytes, batches, BatchMemory::Allocator));
            new_pages.push_back(measure_batch_loop(bytes, batches, BatchMemory::NewPages));
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            collate[i].push_back(allocated[i].collate_gb_per_s / allocated[reference].collate_gb_per_s);
            collate_new_pages[i].push_back(new_pages[i].collate_gb_per_s / new_pages[reference].collate_gb_per_s);
            pin[i].push_back(new_pages[i].pin_gb_per_s / new_pages[reference].pin_gb_per_s);
            free_allocated[i].push_back(allocated[i].free_us);
        }
    }
    // A profile holds factors from 0.01 to 100.
    const auto factor = [](std::vector<double> ratios) { return std::clamp(median(std::move(ratios)), 0.01, 100.0); };
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        factors.sizes_bytes.push_back(static_cast<double>(sizes[i]));
        factors.collate.push_back(factor(std::move(collate[i])));
        factors.collate_new_pages.push_back(factor(std::move(collate_new_pages[i])));
        factors.pin.push_back(factor(std::move(pin[i])));
        results.free_allocated_us.sizes_bytes.push_back(static_cast<double>(sizes[i]));
        results.free_allocated_us.values.push_back(median(std::move(free_allocated[i])));
    }
    return results;
}

std::string batch_loop_sizes_text(const std::vector<std::size_t>& sizes) {
    return format_size(sizes.front()) + " to " + format_size(sizes.back()) + " (" + std::to_string(sizes.size()) + " sizes)";
}

SizeCurve curve_of(const BandwidthResult& result, CopyDirection direction, HostMemoryKind memory) {
    SizeCurve curve;
    for (const BandwidthPoint& point : result.points) {
        if (point.direction != direction || point.memory != memory) continue;
        curve.sizes_bytes.push_back(static_cast<double>(point.bytes));
        curve.values.push_back(point.gb_per_s);
    }
    return curve;
}

// The probe's call at each size in kLoadRounds rounds that visit the sizes in turn (a VM's
// page locking changed up to 10x between calibrations minutes apart, and the samples of one call
// come back to back), both figures kept, each the median of its rounds: the page-locking call's
// cost curve and that of the call that undoes it.
template <typename Measure>
std::pair<SizeCurve, SizeCurve> pin_cost_curves(Measure&& measure) {
    std::vector<std::vector<double>> pins(kCostSizes.size()), unpins(kCostSizes.size());
    for (int round = 0; round < kLoadRounds; ++round)
        for (std::size_t i = 0; i < kCostSizes.size(); ++i) {
            const PinCosts costs = measure(kCostSizes[i]);
            pins[i].push_back(costs.pin_us);
            unpins[i].push_back(costs.unpin_us);
        }
    SizeCurve pin, unpin;
    for (std::size_t i = 0; i < kCostSizes.size(); ++i) {
        for (SizeCurve* curve : {&pin, &unpin}) curve->sizes_bytes.push_back(static_cast<double>(kCostSizes[i]));
        pin.values.push_back(median(std::move(pins[i])));
        unpin.values.push_back(median(std::move(unpins[i])));
    }
    return {std::move(pin), std::move(unpin)};
}

double fastest(const HardwareProfile& profile) {
    double best = 0;
    for (const SizeCurve* curve : {&profile.h2d_pinned_gb_per_s, &profile.d2h_pinned_gb_per_s,
                                   &profile.h2d_write_combined_gb_per_s, &profile.d2h_write_combined_gb_per_s})
        for (const double value : curve->values) best = std::max(best, value);
    return best;
}

// Steps after the sweep, each with its share of the rest of the progress bar.
class Steps {
public:
    Steps(const CalibrationProgress& progress, int count) : progress_(progress), count_(count) {}
    void next(const std::string& step) {
        if (progress_) progress_(step, kSweepShare + (1 - kSweepShare) * done_ / count_);
        ++done_;
    }
    void finish() const {
        if (progress_) progress_("done", 1.0);
    }

private:
    const CalibrationProgress& progress_;
    int count_;
    int done_ = 0;
};

// "0, 1, 2 and 4".
std::string thread_counts_text(const std::vector<double>& counts) {
    std::vector<std::string> items;
    for (const double count : counts) items.push_back(std::to_string(static_cast<int>(count)));
    return format_list(items);
}

std::string totals_text(const MemoryThroughputCurve& curve) {
    std::string text;
    for (std::size_t i = 0; i < curve.threads.size(); ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(static_cast<int>(curve.threads[i])) + ": " +
                format_fixed(curve.copy_gb_per_s[i], 1) + " and " + format_fixed(curve.fill_gb_per_s[i], 1);
    return text;
}

std::string source_text(const CalibrationProbe& probe, const HardwareProfile& profile, const CalibrationOptions& options,
                        std::size_t copy_size_count, int samples, std::size_t memcpy_bytes, const HostCores& cores,
                        bool link_known, double measured_hold_fraction, const std::vector<IdleHostReading>& idle) {
    const DeviceInfo device = probe.info();
    std::string text = "Calibrated by `" + (options.command.empty() ? std::string("pinscope-cli calibrate") : options.command) +
                       "` on " + device.name + (device.detail.empty() ? "" : " (" + device.detail + ")") + " on " +
                       format_utc_minute(options.when.value_or(std::chrono::system_clock::now())) + ". ";
    text += "Measured: copy bandwidth H2D and D2H from pinned, pageable and write-combined memory at " +
            std::to_string(copy_size_count) + " sizes from 64 KiB to 1 GiB (median of " + std::to_string(samples) +
            " samples, CUDA events, each copy traced as in a run); how one loader thread's collate and pin "
            "rates change with the batch size, from " + batch_loop_sizes_text(batch_loop_sizes(options)) + ", against " +
            format_size(kCalibrationBatchBytes) + " (batches in a row on a thread of its own: the consumer's own from the "
            "allocator, pinned and freed before the next, as with no workers, and a worker's on new pages, pinned "
            "after the next is collated and freed on another CPU, as the pin thread frees it: the caches, page faults, and the allocator's reuse of freed batches), what "
            "freeing the consumer's own batch costs there at each size, and what freeing a worker's costs at each size "
            "on another thread than the one that wrote it (median of " + std::to_string(kMemcpySamples) + "); how long a pageable " + format_size(kHoldBytes) +
            " copy holds the host (" + format_fixed(measured_hold_fraction, 2) + " of the copy" +
            (measured_hold_fraction > 1 ? ", recorded as 1" : "") + "); whether a pageable copy of " +
            format_size(kCalibrationBatchBytes) + " overlaps a running kernel (" +
            (profile.pageable_overlaps_compute ? "yes" : "no") +
            "); the host cost of issuing a copy or a launch; the kernel's read of a batch of " +
            format_size(kCalibrationBatchBytes) + "; cudaHostAlloc and cudaFreeHost (with blocks held, as pin_mode alloc holds batches waiting for their "
            "copies), cudaHostRegister and cudaHostUnregister at " + format_size_list(kCostSizes) +
            " (median of " + std::to_string(kLoadRounds) + " rounds that visit the sizes in turn), and which of them wait for the GPU to finish the work queued before them (" +
            waits_text(profile.waits_for_device) + ": each called on 4 MiB while a 50 ms kernel runs, and said to wait where it did in most of 3 tries); " +
            driver_lock_text(profile.driver_lock, profile.waits_for_device) +
            "; how much of a cudaHostRegister of 512 MiB a munmap of 4 MiB on another thread, made 2 ms into it, waits for (" +
            (profile.unmap_waits_for_host_register > 0
                 ? "until " + format_fixed(profile.unmap_waits_for_host_register, 2) + " of the call had passed"
                 : "it did not wait") +
            ", median of 5)" +
            "; memcpy on one thread, pageable to pageable (" + format_size(memcpy_bytes) + " buffers, median of " +
            std::to_string(kMemcpySamples) + "); with nothing else running: filling samples, collating them into a new batch's pages "
            "(page faults included, each batch freed on another CPU as the pin thread frees a worker's) and pinning a batch just collated into cudaHostAlloc'd memory (" +
            format_size(kCalibrationBatchBytes) + "); and how filling and collating slow, and what pinning, a pageable "
            "H2D copy (at " + format_size_list(std::vector<std::size_t>(kPageableSizes.begin(), kPageableSizes.end())) + " too) and freeing cost for a batch pushed out of the caches (as one a worker hands over is; the one "
            "freed written by a thread on another CPU), and what a batch's cudaHostAlloc with cudaFreeHost and its "
            "cudaHostRegister with cudaHostUnregister cost, while " +
            thread_counts_text(profile.under_load.others) + " other threads fill, collate into fresh buffers and free them, "
            "as loader workers do (" + format_size(kCalibrationBatchBytes) + " each). Each of these host figures is the "
            "median of " + std::to_string(kLoadRounds) + " rounds that visit the thread counts in turn. "
            "What the machine's memory gives every thread together: the bytes per second that " +
            thread_counts_text(profile.under_load.all_threads.threads) +
            " threads moved in all, each memcpy'ing between reused buffers of its own and then filling one with samples, "
            "as workers that collate into page-locked blocks do (each count the median of its rounds; GB/s copied and "
            "filled by thread count: " + totals_text(profile.under_load.all_threads) + "). ";
    text += idle_readings_text(idle);
    text += pipeline_costs_text(profile, options.pipeline_device, options.quick);
    text += "Counted: " + std::to_string(cores.cores) + " host cores (" + cores.counted_by +
            ": physical cores this process may use; " + std::to_string(cores.threads) + " hardware threads). ";
    text += link_known ? "The link's limit is the theoretical rate of its speed and width as the device reports them."
                       : "Assumed: the link's limit is the fastest copy measured (the device did not say its link).";
    return text;
}

// Host work alone and with k other threads streaming through memory, visited in kLoadRounds
// interleaved rounds; each figure is the median of its rounds. Back-to-back samples share a
// moment: on the H200 machine one calibration's pin rate read 8.8 GB/s and the next calibration's 17.1,
// while pins in the pipeline ran at 17. Sets the profile's under-load curve against these rounds'
// own idle figures: a thread's own streaming against the same alone; work on a batch in memory
// against the idle figures for a batch just collated. Each round's idle reading goes into `idle`,
// from which calibrate takes the profile's idle rates.
void measure_host_rates(CalibrationProbe& probe, const std::vector<int>& thread_counts, HardwareProfile& profile,
                        std::vector<IdleHostReading>& idle) {
    const double bytes = static_cast<double>(kCalibrationBatchBytes);
    struct Samples {
        std::vector<double> fill, first_touch, pin, pageable, free_us, host_alloc_us, host_register_us;
        std::array<std::vector<double>, kPageableSizes.size()> pageable_by_size;
    };
    std::vector<Samples> samples(thread_counts.size());
    const std::size_t first_idle = idle.size();
    for (int round = 0; round < kLoadRounds; ++round) {
        for (std::size_t i = 0; i < thread_counts.size(); ++i) {
            const BackgroundLoad load(thread_counts[i], kCalibrationBatchBytes);
            Samples& at = samples[i];
            if (thread_counts[i] == 0) {
                const IdleHostReading alone = read_idle_host(probe, "in round " + std::to_string(round + 1) + " of the host's rates");
                idle.push_back(alone);
                at.fill.push_back(alone.fill_gb_per_s);
                at.first_touch.push_back(alone.first_touch_gb_per_s);
            } else {
                at.fill.push_back(measure_fill_gb_per_s(kCalibrationBatchBytes, kMemcpySamples));
                at.first_touch.push_back(measure_first_touch_gb_per_s(kCalibrationBatchBytes, kMemcpySamples));
            }
            at.pin.push_back(probe.memcpy_to_pinned_gb_per_s(kCalibrationBatchBytes, BatchState::InMemory));
            at.pageable.push_back(probe.pageable_h2d_gb_per_s(kCalibrationBatchBytes, BatchState::InMemory));
            for (std::size_t k = 0; k < kPageableSizes.size(); ++k)
                at.pageable_by_size[k].push_back(probe.pageable_h2d_gb_per_s(kPageableSizes[k], BatchState::InMemory));
            at.free_us.push_back(measure_handed_over_free_us(kCalibrationBatchBytes, kMemcpySamples));
            // A batch's page locking and its undoing, as pin_mode alloc and register pay them per batch.
            const PinCosts alloc = probe.host_alloc_free_us(kCalibrationBatchBytes);
            at.host_alloc_us.push_back(alloc.pin_us + alloc.unpin_us);
            const PinCosts registered = probe.host_register_unregister_us(kCalibrationBatchBytes);
            at.host_register_us.push_back(registered.pin_us + registered.unpin_us);
        }
    }
    // Each factor against these rounds' own idle figure, of the same moments.
    const double alone_fill = median(samples.front().fill);
    const double alone_first_touch = median(samples.front().first_touch);
    const std::vector<IdleHostReading> rounds_idle(idle.begin() + static_cast<std::ptrdiff_t>(first_idle), idle.end());
    const double alone_pin = median_rate(rounds_idle, &IdleHostReading::pin_gb_per_s);
    HostLoadCurve& curve = profile.under_load;
    curve = {};
    for (const std::size_t size : kPageableSizes) curve.pageable_h2d_by_size.push_back({static_cast<double>(size), {}});
    const double alone_alloc_us = std::max(median(samples.front().host_alloc_us), 1e-3);
    const double alone_register_us = std::max(median(samples.front().host_register_us), 1e-3);
    const double alone_free_us = std::max(median(samples.front().free_us), 1e-3);
    for (std::size_t i = 0; i < thread_counts.size(); ++i) {
        Samples& at = samples[i];
        curve.others.push_back(thread_counts[i]);
        curve.fill.push_back(median(std::move(at.fill)) / alone_fill);
        curve.first_touch.push_back(median(std::move(at.first_touch)) / alone_first_touch);
        curve.memcpy_to_pinned.push_back(median(std::move(at.pin)) / alone_pin);
        curve.pageable_h2d.push_back(median(std::move(at.pageable)) / profile.h2d_pageable_gb_per_s.at(bytes));
        for (std::size_t k = 0; k < kPageableSizes.size(); ++k)
            curve.pageable_h2d_by_size[k].by_others.push_back(
                median(std::move(at.pageable_by_size[k])) /
                profile.h2d_pageable_gb_per_s.at(static_cast<double>(kPageableSizes[k])));
        curve.free_pageable.push_back(median(std::move(at.free_us)) / alone_free_us);
        curve.host_alloc.push_back(median(std::move(at.host_alloc_us)) / alone_alloc_us);
        curve.host_register.push_back(median(std::move(at.host_register_us)) / alone_register_us);
    }
}

// What every thread together moved through memory, copying and filling, at each of `thread_counts`:
// the median of its rounds (interleaved, as the load rounds are).
MemoryThroughputCurve measure_all_threads(const std::vector<int>& thread_counts, std::size_t bytes, bool quick) {
    const int rounds = quick ? 1 : kLoadRounds;
    const double seconds = quick ? 0.05 : 0.3;
    std::vector<std::vector<double>> copy(thread_counts.size()), fill(thread_counts.size());
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < thread_counts.size(); ++i) {
            const int threads = thread_counts[i];
            const MemoryThroughput at = measure_memory_throughput(threads, bytes / static_cast<std::size_t>(threads), seconds);
            copy[i].push_back(at.copy_gb_per_s);
            fill[i].push_back(at.fill_gb_per_s);
        }
    MemoryThroughputCurve curve;
    for (std::size_t i = 0; i < thread_counts.size(); ++i) {
        curve.threads.push_back(thread_counts[i]);
        curve.copy_gb_per_s.push_back(median(std::move(copy[i])));
        curve.fill_gb_per_s.push_back(median(std::move(fill[i])));
    }
    return curve;
}

}  // namespace

std::vector<int> all_threads_counts(int hardware_threads) {
    std::vector<int> counts;
    for (int k = 1; k < hardware_threads; k *= 2) counts.push_back(k);
    counts.push_back(std::max(1, hardware_threads));
    return counts;
}

void export_profile(const std::string& path, const HardwareProfile& profile) {
    write_file_atomically(path, [&](std::ostream& out) { out << json_text(to_json(profile), 2) << '\n'; });
}

std::string default_profile_name(const std::string& gpu_name, const std::string& link_name) {
    // Words of the GPU name, split at spaces and dashes, without the brand words.
    std::vector<std::string> words;
    std::string word;
    const auto flush = [&] {
        if (!word.empty() && word != "nvidia" && word != "geforce" && word != "tesla" && word != "quadro")
            words.push_back(word);
        word.clear();
    };
    for (const char c : gpu_name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else
            flush();
    }
    flush();
    // Up to the model number: the first word with a digit ("h100", "a6000", "4090").
    std::string name;
    for (const std::string& w : words) {
        name += (name.empty() ? "" : "-") + w;
        if (std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            break;
    }
    if (name.empty()) name = "gpu";
    // "PCIe Gen5 x16" -> "-pcie5".
    const auto gen = link_name.find("Gen");
    if (link_name.starts_with("PCIe") && gen != std::string::npos && gen + 3 < link_name.size() &&
        std::isdigit(static_cast<unsigned char>(link_name[gen + 3])))
        name += "-pcie" + std::string(1, link_name[gen + 3]);
    return name;
}

std::vector<int> load_thread_counts(int cores) {
    std::vector<int> counts{0};
    for (int k = 1; k < cores - 1; k *= 2) counts.push_back(k);
    if (cores - 2 > counts.back()) counts.push_back(cores - 2);
    return counts;
}

HardwareProfile calibrate_profile(CalibrationProbe& probe, const CalibrationOptions& options,
                                  const CalibrationProgress& progress) {
    CopyTimer& timer = probe.copy_timer();
    const std::vector<std::size_t> sizes = copy_sizes(options.quick);
    std::vector<IdleHostReading> idle{read_idle_host(probe, "before the copy sweep")};
    BandwidthOptions sweep;
    sweep.samples = options.quick ? 3 : 5;
    const BandwidthResult bandwidth =
        sweep_copy_timer(timer, sweep, sizes, [&](double fraction, const BandwidthPoint& point) {
            if (progress)
                progress("copy bandwidth, " + to_string(point.direction) + " " + to_string(point.memory),
                         kSweepShare * fraction);
            return true;
        });

    HardwareProfile profile;
    profile.h2d_pinned_gb_per_s = curve_of(bandwidth, CopyDirection::H2D, HostMemoryKind::Pinned);
    profile.h2d_pageable_gb_per_s = curve_of(bandwidth, CopyDirection::H2D, HostMemoryKind::Pageable);
    profile.h2d_write_combined_gb_per_s = curve_of(bandwidth, CopyDirection::H2D, HostMemoryKind::WriteCombined);
    profile.d2h_pinned_gb_per_s = curve_of(bandwidth, CopyDirection::D2H, HostMemoryKind::Pinned);
    profile.d2h_pageable_gb_per_s = curve_of(bandwidth, CopyDirection::D2H, HostMemoryKind::Pageable);
    profile.d2h_write_combined_gb_per_s = curve_of(bandwidth, CopyDirection::D2H, HostMemoryKind::WriteCombined);

    idle.push_back(read_idle_host(probe, "after the copy sweep"));
    Steps steps(progress, 16);
    steps.next("pageable copy: host hold");
    const double hold = probe.pageable_hold_fraction(kHoldBytes);
    profile.pageable_hold_fraction = std::min(hold, 1.0);  // a hold beyond the copy is the call's own cost
    steps.next("pageable copy: overlap with a kernel");
    profile.pageable_overlaps_compute = probe.pageable_overlaps_compute(kCalibrationBatchBytes);
    steps.next("copy and launch call cost");
    profile.copy_call_us = probe.copy_call_us();
    steps.next("kernel read of a batch");
    profile.device_read_gb_per_s = probe.device_read_gb_per_s(kCalibrationBatchBytes);
    steps.next("cudaHostAlloc and cudaFreeHost");
    std::tie(profile.host_alloc_us, profile.free_host_us) =
        pin_cost_curves([&](std::size_t bytes) { return probe.host_alloc_free_us(bytes); });
    steps.next("cudaHostRegister and cudaHostUnregister");
    std::tie(profile.host_register_us, profile.host_unregister_us) =
        pin_cost_curves([&](std::size_t bytes) { return probe.host_register_unregister_us(bytes); });
    steps.next("page-locking calls that wait for the GPU");
    profile.waits_for_device = probe.page_locking_waits();
    steps.next("calls that wait while another thread holds the driver");
    profile.driver_lock = probe.driver_lock(profile.waits_for_device);
    steps.next("munmap while another thread is inside cudaHostRegister");
    profile.unmap_waits_for_host_register = probe.unmap_waits_for_host_register();
    steps.next("host cores");
    const HostCores cores = count_host_cores();
    profile.host_cores = cores.cores;
    steps.next("host memcpy");
    const std::size_t memcpy_bytes = options.memcpy_bytes > 0 ? options.memcpy_bytes : memcpy_buffer_bytes();
    profile.memcpy_gb_per_s = measure_memcpy_gb_per_s(memcpy_bytes, kMemcpySamples);
    steps.next("host rates and frees by batch size");
    BatchLoopResults loops = measure_batch_loops(batch_loop_sizes(options), options.quick);
    profile.by_batch_size = std::move(loops.factors);
    profile.free_pageable_us = std::move(loops.free_allocated_us);
    // A worker's batch is freed by the pin thread or the consumer, not the thread that wrote it.
    for (const std::size_t bytes : batch_loop_sizes(options)) {
        profile.free_new_pages_us.sizes_bytes.push_back(static_cast<double>(bytes));
        profile.free_new_pages_us.values.push_back(measure_handed_over_free_us(bytes, kMemcpySamples));
    }
    steps.next("host rates alone and under load");
    // Thread counts must start at 0: the idle rates are that point's.
    std::vector<int> counts = options.load_threads.empty() ? load_thread_counts(cores.cores) : options.load_threads;
    if (counts.empty() || counts.front() != 0) counts.insert(counts.begin(), 0);
    measure_host_rates(probe, counts, profile, idle);
    steps.next("host memory, every thread streaming together");
    // Every thread's buffers together far beyond the caches, as the pipeline's batches are.
    const std::size_t all_threads_bytes =
        options.memcpy_bytes > 0 ? memcpy_bytes
                                 : std::max(memcpy_bytes, static_cast<std::size_t>(cores.threads) * (std::size_t{32} << 20));
    profile.under_load.all_threads = measure_all_threads(all_threads_counts(cores.threads), all_threads_bytes, options.quick);
    idle.push_back(read_idle_host(probe, "after the threads streaming together"));
    steps.next("the pipeline's frees and page-locking, in short runs of it");
    if (!options.pipeline_device.empty()) measure_pipeline_costs(options.pipeline_device, options.quick, profile);
    idle.push_back(read_idle_host(probe, "at the end"));
    profile.fill_gb_per_s = median_rate(idle, &IdleHostReading::fill_gb_per_s);
    profile.first_touch_gb_per_s = median_rate(idle, &IdleHostReading::first_touch_gb_per_s);
    profile.memcpy_to_pinned_gb_per_s = median_rate(idle, &IdleHostReading::pin_gb_per_s);

    steps.next("writing the profile");
    const DeviceInfo device = probe.info();
    const bool link_known = bandwidth.link_gb_per_s > 0;
    profile.link_name = bandwidth.link_name.empty() ? "unknown link" : bandwidth.link_name;
    profile.link_gb_per_s = link_known ? bandwidth.link_gb_per_s : fastest(profile);
    profile.name = options.name.empty() ? default_profile_name(device.name, bandwidth.link_name) : options.name;
    profile.description = device.name + ", " + profile.link_name + ", " + std::to_string(profile.host_cores) +
                          " host cores";
    profile.source = source_text(probe, profile, options, sizes.size(), sweep.samples, memcpy_bytes, cores,
                                 link_known, hold, idle);

    // The profile must load back as written: check it as load_profile would.
    try {
        profile = profile_from_json(to_json(profile));
    } catch (const ConfigError& error) {
        throw std::runtime_error("calibration on " + device.name + " measured no valid profile: " + error.what());
    }
    steps.finish();
    return profile;
}

}  // namespace pinscope
