// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the pipeline's own calls cost where it makes them, measured in short runs of the pipeline.
// On the H100 VMs (2026-11-27) the pin thread's frees of workers' batches took 1.1 to 2.6 times
// what freeing the same size alone took, and no probe without the pipeline reproduced it; a
// batch's cudaHostRegister took 1.1 to 2.0 times the probe's on one VM, 0.65 to 1.3 on another.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/device/HardwareProfile.h"
#include "engine/trace/Span.h"

namespace pinscope {

enum class PipelineCost {
    // The pin thread freeing a worker's batch of new pages after copying it into a pool block
    // (pin_mode pool, two workers collating).
    FreeWorkersBatch,
    // cudaHostRegister of a batch just collated into new pages (pin_mode register).
    HostRegister,
    // cudaHostAlloc of a batch's page-locked block (pin_mode alloc).
    HostAlloc,
    // The same with loader workers running (pin_mode alloc, kAllocRunWorkers of them; the pin thread
    // makes the call). In validate's cells on three H100 VMs (2026-11-27), with one to eight
    // workers, a 3 to 10 MB batch's took 1.2 to 2.9 times HostAlloc's figure at its size and a 14
    // to 56 MB batch's 0.65 to 1.0 times, where the model's spans, from the probe's under-load
    // factor, were 0.54 to 1.48 times whatever the size.
    HostAllocWithWorkers,
};

// The pipeline on `device` (a CUDA device, or the emulated one in tests) with the real host,
// batches of each of `sizes` (multiples of 16 KiB), `seconds` per size. HostRegister and HostAlloc
// are timed with no workers, so that no other thread holds the driver while they run: their spans
// are the calls alone, where the pipeline makes them. HostAllocWithWorkers's spans are the pin
// thread's, less the time each overlapped a cudaFreeHost of the consumer's where `driver_lock`
// says a cudaHostAlloc waits for one (the model adds that wait itself). Each point is the median
// span after the run's first third, in us (median_cost_us); a size whose run would lock more than the default pinned budget (a quarter
// of physical memory) is left out. Throws DeviceError when the device fails or a run ends in an
// error, and std::runtime_error when a size's run made no such call after its first third (nor
// runs twice and four times as long).
// With `workers`, a run with workers also gives, at each size, its workers' median rates of filling
// samples and of collating them into a batch (their load and collate spans after the first third;
// the runs do no CPU work), and the pin thread's median free of a worker's batch after copying it
// (in us; in the pool run, FreeWorkersBatch, that is the cost itself).
struct WorkerRates {
    SizeCurve fill_gb_per_s;
    SizeCurve collate_gb_per_s;
    SizeCurve batch_free_us;
};
SizeCurve measure_pipeline_costs_us(const std::string& device, PipelineCost cost, const std::vector<std::size_t>& sizes,
                                    double seconds, const DriverLock& driver_lock = {}, WorkerRates* workers = nullptr);

// One size's run: its spans and where its first third ends.
struct SizeRun {
    std::vector<Span> spans;
    TimeNs settled = 0;
};
// Runs the pipeline with batches of `bytes` for `seconds`; nothing where the pinned budget leaves
// the size out.
using SizeRunner = std::function<std::optional<SizeRun>(std::size_t bytes, double seconds)>;
// The same, with each size's runs made by `run_at`.
SizeCurve measure_pipeline_costs_us(const SizeRunner& run_at, PipelineCost cost, const std::vector<std::size_t>& sizes,
                                    double seconds, const DriverLock& driver_lock = {}, WorkerRates* workers = nullptr);

// The workers' median rate in one run's spans of `stage`, in GB/s (1e9 bytes): their spans that
// began at `settled` or later; none when none did.
std::optional<double> median_worker_gb_per_s(const std::vector<Span>& spans, Stage stage, TimeNs settled);

// What one run's spans say `cost` is: the median, in us, of its calls that began at `settled` or
// later (for HostAllocWithWorkers, each less its waits behind the consumer's frees, as above);
// none when no such call began then.
std::optional<double> median_cost_us(const std::vector<Span>& spans, PipelineCost cost, TimeNs settled,
                                     const DriverLock& driver_lock);

// Calibrate's step: each cost on `device` at its sizes, 1.5 s a size (quick: 2 and 32 MiB, 0.6 s),
// into the profile's pipeline_free_us, pipeline_host_register_us, pipeline_host_alloc_us and
// pipeline_host_alloc_workers_us (using its driver_lock, which calibrate measured before), and the
// pool run's and the alloc run's workers' filling and collating into pipeline_worker_fill_gb_per_s,
// pipeline_worker_collate_gb_per_s, pipeline_alloc_workers_fill_gb_per_s,
// pipeline_alloc_workers_collate_gb_per_s and (the alloc run's pin thread) pipeline_alloc_workers_free_us.
void measure_pipeline_costs(const std::string& device, bool quick, HardwareProfile& profile);

// What that step measured, as a sentence or two of the profile's source; empty where it did not run.
std::string pipeline_costs_text(const HardwareProfile& profile, const std::string& device, bool quick);

}  // namespace pinscope
