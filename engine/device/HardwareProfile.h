// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the emulated device models, measured on a real machine: copy bandwidth by size and kind,
// how pageable copies hold the host and whether they overlap kernels, and the host's cores,
// memcpy rate and page-locking costs. Profiles are JSON (resources/profiles); `pinscope-cli
// calibrate` measures one on a real GPU.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace pinscope {

// The batch calibration measures with (one of the sizes the page-locking costs are measured at,
// too): 64 x 3x224x224 float32. The host's rates under load are measured at this size.
inline constexpr std::size_t kCalibrationBatchBytes = 38535168;
// How many loader workers run in calibrate's pipeline runs with workers: the pool run of
// pipeline_free_us and the alloc run of pipeline_host_alloc_workers_us.
inline constexpr int kPoolRunWorkers = 2;
inline constexpr int kAllocRunWorkers = 4;

// A quantity that depends on a size in bytes: measured points, interpolated on a log size axis
// and held flat beyond the ends (or proportional to size, for costs).
struct SizeCurve {
    std::vector<double> sizes_bytes;
    std::vector<double> values;
    double at(double bytes) const;               // interpolated in log2(size), clamped at the ends
    double scaled_at(double bytes) const;        // linear in size through the origin below the first point
    bool empty() const { return sizes_bytes.empty(); }
};

// `threads` threads at once, each memcpy'ing between reused buffers of its own far beyond the
// caches (copy) or filling one with samples (fill), as workers that collate into page-locked blocks
// do: the bytes per second all of them moved (calibrate).
struct MemoryThroughputCurve {
    std::vector<double> threads;  // ascending, from 1
    std::vector<double> copy_gb_per_s;
    std::vector<double> fill_gb_per_s;
    // One thread's rate alone (the first point's share).
    static double one_thread(const std::vector<double>& axis, const std::vector<double>& totals);
    // How fast each of `streams` threads streaming at once goes against one alone: the total at
    // `streams` (linear between thread counts, the last one's beyond) over `streams` times one
    // thread's rate, at most 1.
    static double share(const std::vector<double>& axis, const std::vector<double>& totals, double streams);
    bool empty() const { return threads.empty(); }
};

// A worker's pageable H2D copy under load at one batch size: rate factors by `others`.
struct PageableFactorsAtSize {
    double bytes = 0;
    std::vector<double> by_others;
    bool operator==(const PageableFactorsAtSize&) const = default;
};

// How host work slows while `others` other threads stream through memory as loader workers do
// (fill their samples, collate into a fresh buffer, free it): factors measured by calibrate.
// Empty: no contention modelled.
struct HostLoadCurve {
    std::vector<double> others;       // ascending
    // A thread's own streaming, rate factors against the idle rate:
    std::vector<double> fill;         //   a load's writes (fill_gb_per_s)
    std::vector<double> first_touch;  //   a collate into a fresh buffer (first_touch_gb_per_s)
    // Work on a batch another thread collated earlier, read from memory rather than the caches,
    // against the same work on a batch its own thread has just collated, with none busy (so below
    // 1 even with no others):
    std::vector<double> memcpy_to_pinned;  // rate factor of a pin copy (memcpy_to_pinned_gb_per_s)
    std::vector<double> pageable_h2d;      // rate factor of a pageable H2D copy (the sweep's rate at its size)
    // The same at other sizes than calibrate's batch, each against the sweep's rate at its size,
    // ascending (optional: empty, the factors above at every size). In the JSON,
    // "pageable_h2d_by_size"; profiles calibrated before 2026-11-28 hold these as
    // "pageable_h2d_small" and "pageable_h2d_large" (each with its "..._bytes") and
    // "pageable_h2d_more", which still read. On an H200 VM a worker's 1.5 MB batch took 1.4 times
    // the model's staging with five workers busy when only calibrate's size was measured; on an H100
    // VM, with 2 MiB, 38.5 MB and 256 MiB, the staging of workers' batches was 10 % short in median
    // from 7 to 27 MB (0.75 to 1.11 of the GPU's time) and 14 % long from 55 to 100 MB (0.96 to 1.23).
    std::vector<PageableFactorsAtSize> pageable_h2d_by_size;
    // The pageable H2D factor for a batch of `bytes` with `others` streaming: between the sizes
    // measured on a log size axis, the nearest one's beyond them.
    double pageable_h2d_at(double others, double bytes) const;
    // Cost factor of freeing a batch (free_new_pages_us, free_pageable_us) against the same free
    // with none busy (1 with no others, but in profiles calibrated before 2026-11-26 evening).
    std::vector<double> free_pageable;
    // Page-locking calls while others stream (they fault pages and take the memory map's lock the
    // others' page faults need), cost factors against the same calls alone; optional (empty: 1):
    std::vector<double> host_alloc;     // cudaHostAlloc then cudaFreeHost (host_alloc_us, free_host_us)
    std::vector<double> host_register;  // cudaHostRegister then cudaHostUnregister (host_register_us, ...)
    // What the machine's memory gives every thread together (optional: empty in profiles
    // calibrated before 2026-11-27). The curves above cannot show it: their load threads' page
    // faults hold each to a fraction of what a thread streaming through reused memory moves.
    MemoryThroughputCurve all_threads;
    // The factor with `others` threads busy: interpolated linearly, held flat beyond the ends.
    static double at(const std::vector<double>& axis, const std::vector<double>& factors, double others);
    bool empty() const { return others.empty(); }
};

// How one loader worker's host rates change with the batch size, as factors against the rates at
// the size calibrate measures them at (where each factor is 1): a small batch stays in the caches,
// and a batch from the C library's allocator may reuse the memory of the one before. Measured by
// calibrate (measure_batch_loop); empty: the same rates at every size.
struct HostSizeFactors {
    std::vector<double> sizes_bytes;  // ascending
    // No factor for filling samples: calibrate's ratios by size (0.74 to 1.13) did not say how fast
    // validate's cells filled at that size (212 cells on eight H100 VMs, 2026-11-27 and 28), so a
    // load fills at fill_gb_per_s whatever the batch; a "fill" array in older profiles is ignored.
    // first_touch_gb_per_s: samples into a batch from the allocator (BatchMemory::Allocator, no
    // workers); glibc reused freed batches below 16 MiB on the GPU machines (factors of 6 to 13).
    std::vector<double> collate;
    // first_touch_gb_per_s: samples into a worker's batch of new pages (BatchMemory::NewPages);
    // optional in the JSON (profiles calibrated before 2026-11-26 lack it): 1 at every size.
    std::vector<double> collate_new_pages;
    std::vector<double> pin;          // memcpy_to_pinned_gb_per_s: a batch into page-locked memory
    // The factor for a batch of `bytes`: interpolated on a log size axis, held flat beyond the
    // ends; 1 when empty.
    double at(const std::vector<double>& factors, double bytes) const;
    bool empty() const { return sizes_bytes.empty(); }
};

// Which page-locking calls wait until the GPU has finished every copy and kernel queued before
// them (as cudaFreeHost does, which is why PyTorch caches pinned blocks), measured by calibrate
// with a kernel running; optional in the JSON ("host.waits_for_device"), where absent is false.
struct PageLockingWaits {
    bool host_alloc = false;       // cudaHostAlloc
    bool free_host = false;        // cudaFreeHost
    bool host_register = false;    // cudaHostRegister
    bool host_unregister = false;  // cudaHostUnregister
    bool any() const { return host_alloc || free_host || host_register || host_unregister; }
    bool operator==(const PageLockingWaits&) const = default;
};

// The calls another thread makes that wait while one thread holds the driver (each measured by
// calibrate: made on one thread while another is inside the holding call, it returned only once
// that call had).
struct DriverWaiters {
    bool host_alloc = false;       // cudaHostAlloc
    bool free_host = false;        // cudaFreeHost
    bool host_register = false;    // cudaHostRegister
    bool host_unregister = false;  // cudaHostUnregister
    bool copies = false;           // cudaMemcpyAsync
    bool launches = false;         // a kernel launch
    bool any() const { return host_alloc || free_host || host_register || host_unregister || copies || launches; }
    bool operator==(const DriverWaiters&) const = default;
};

// What the driver serialises between threads, measured by calibrate; optional in the JSON
// ("host.driver_lock"; absent, or a set of it absent: no call waits, and a set where none does is
// written so). A profile of before 2026-11-26 says only "waits_for_device.one_at_a_time": a
// cudaHostAlloc waited while another thread's cudaFreeHost waited for the GPU
// (while_free_waits.host_alloc). One of before 2026-11-27 has no register or unregister sets.
struct DriverLock {
    DriverWaiters during_host_alloc;       // while a cudaHostAlloc runs (calibrate: of 512 MiB)
    DriverWaiters during_free_host;        // while a cudaFreeHost runs, the GPU idle (of 512 MiB)
    DriverWaiters during_host_register;    // while a cudaHostRegister runs (of 512 MiB)
    DriverWaiters during_host_unregister;  // while a cudaHostUnregister runs, the GPU idle (of 512 MiB)
    // While a cudaFreeHost or a cudaHostUnregister waits for the GPU (calibrate: behind a 50 ms
    // kernel), where waits_for_device says it does. Neither call is asked of these two: each
    // waits for the GPU itself.
    DriverWaiters while_free_waits;
    DriverWaiters while_unregister_waits;
    bool any() const;
    bool operator==(const DriverLock&) const = default;
};

// The six calls a DriverWaiters speaks of: JSON key, the call's name, its flag.
struct DriverWaiterField {
    const char* key;
    const char* call;
    bool DriverWaiters::*flag;
};
inline constexpr DriverWaiterField kDriverWaiterFields[] = {
    {"host_alloc", "cudaHostAlloc", &DriverWaiters::host_alloc},
    {"free_host", "cudaFreeHost", &DriverWaiters::free_host},
    {"host_register", "cudaHostRegister", &DriverWaiters::host_register},
    {"host_unregister", "cudaHostUnregister", &DriverWaiters::host_unregister},
    {"copies", "cudaMemcpyAsync", &DriverWaiters::copies},
    {"launches", "a kernel launch", &DriverWaiters::launches},
};

// The sets of a DriverLock by JSON key.
struct DriverLockField {
    const char* key;
    DriverWaiters DriverLock::*waiters;
};
inline constexpr DriverLockField kDriverLockFields[] = {
    {"during_host_alloc", &DriverLock::during_host_alloc},
    {"during_free_host", &DriverLock::during_free_host},
    {"during_host_register", &DriverLock::during_host_register},
    {"during_host_unregister", &DriverLock::during_host_unregister},
    {"while_free_waits", &DriverLock::while_free_waits},
    {"while_unregister_waits", &DriverLock::while_unregister_waits},
};

inline bool DriverLock::any() const {
    for (const DriverLockField& field : kDriverLockFields)
        if ((this->*field.waiters).any()) return true;
    return false;
}

// A run of `pinscope-cli validate` with this profile against a GPU: what it found.
struct ProfileValidation {
    std::string when;    // "2026-11-25 19:40 UTC"
    std::string against; // the GPU's name; recorded: the file the GPU's figures were read from
    // The GPU's figures came from an earlier validate's --csv (validate --against): its seed is
    // not known (0) and the GPU ran on another day, maybe another machine. Optional in the JSON.
    bool recorded = false;
    bool calibrated_in_the_same_call = false;  // false: the profile as it was handed to validate
    std::uint64_t seed = 0;
    std::size_t cells = 0;
    double seconds = 0;
    std::size_t repeat = 1;
    std::size_t within_10 = 0;
    std::size_t within_15 = 0;
    std::size_t pairs_agreeing = 0;
    std::size_t pairs_counted = 0;
    // The host's speed read before the cells against the profile's own figures (each reading's
    // rate over the profile's, a free's cost inverted), the slowest and the fastest; 0: not read.
    double host_slowest = 0;
    double host_fastest = 0;
    bool operator==(const ProfileValidation&) const = default;
};

// How far to trust a profile (optional in the JSON, "trust"): how many machines of one kind its
// figures are the median of, how far those machines differ (the largest ratio between two of them;
// 0 with one machine), and what validate found.
struct ProfileTrust {
    int machines = 1;
    double copy_spread = 0;  // pinned H2D at 64 MiB: the GPU and its link
    double host_spread = 0;  // the widest of the host's figures (rates, page-locking costs, pageable H2D)
    std::vector<ProfileValidation> validations;
    bool operator==(const ProfileTrust&) const = default;
};

struct HardwareProfile {
    std::string name;         // "h200-pcie5"
    std::string description;  // "NVIDIA H200, PCIe Gen5 x16"
    std::string source;       // where and when the figures were measured
    std::string link_name;    // "PCIe Gen5 x16"
    double link_gb_per_s = 0; // the link's theoretical limit per direction

    SizeCurve h2d_pinned_gb_per_s;
    SizeCurve h2d_pageable_gb_per_s;
    SizeCurve d2h_pinned_gb_per_s;
    SizeCurve d2h_pageable_gb_per_s;
    // Write-combined host memory (cudaHostAllocWriteCombined); optional in the JSON, where a
    // missing curve reads as the pinned one (and one equal to it is not written).
    SizeCurve h2d_write_combined_gb_per_s;
    SizeCurve d2h_write_combined_gb_per_s;
    double pageable_hold_fraction = 1.0;    // share of a pageable copy during which the caller is held
    bool pageable_overlaps_compute = false; // can a pageable copy run while a kernel runs?
    double copy_call_us = 5;                // host cost of issuing a copy or a launch

    double device_read_gb_per_s = 3000;     // the kernel's pass over the batch in device memory

    int host_cores = 16;
    double memcpy_gb_per_s = 16;            // one thread, pageable to pageable
    double memcpy_to_pinned_gb_per_s = 15;  // one thread, a just-collated batch into page-locked memory
    double fill_gb_per_s = 0;               // one thread producing samples (fill_sample); 0: as memcpy_gb_per_s
    // One thread, into freshly allocated pageable memory, its page faults included: what collating
    // into a new batch costs (a fresh 38.5 MB buffer faults in every page). 0: as memcpy_gb_per_s.
    double first_touch_gb_per_s = 0;
    HostLoadCurve under_load;
    HostSizeFactors by_batch_size;
    SizeCurve host_alloc_us;                // cudaHostAlloc
    SizeCurve free_host_us;                 // cudaFreeHost
    SizeCurve host_register_us;             // cudaHostRegister
    SizeCurve host_unregister_us;           // cudaHostUnregister
    // The consumer freeing its own batch from the allocator (BatchMemory::Allocator); empty: free.
    SizeCurve free_pageable_us;
    // Freeing a worker's batch of new pages (munmap at every size) on another thread than the
    // worker's, as the pin thread or the consumer does (calibrated before 2026-11-26 evening: on the
    // thread that wrote it, under_load.free_pageable's first factor holding the difference); empty
    // (calibrated before 2026-11-26): free_pageable_us's points from 32 MiB on, where glibc maps
    // every batch too.
    SizeCurve free_new_pages_us;
    // The same free in a running pipeline (calibrate's pool run, engine/calibrate/PipelineFrees.h),
    // which the model uses instead where measured, as it is: the workers already ran. Optional in
    // the JSON ("host.pipeline_free_us"; calibrated before 2026-11-27 evening: absent).
    SizeCurve pipeline_free_us;
    // cudaHostRegister and cudaHostAlloc of a batch where the pipeline makes them (calibrate's runs
    // with no workers, engine/calibrate/PipelineCosts.h), which the model charges instead of
    // host_register_us and host_alloc_us where measured, slowed under load as those are. Optional
    // in the JSON ("host.pipeline_host_register_us", "host.pipeline_host_alloc_us"; older: absent).
    SizeCurve pipeline_host_register_us;
    SizeCurve pipeline_host_alloc_us;
    // cudaHostAlloc of a batch with loader workers running (calibrate's run with four, less the
    // call's waits for the consumer's frees), which the model charges instead, as it is, in a run
    // with workers: on the H100 VMs workers made a small batch's cost more and a large one's less,
    // running or idle, than the probe's factors under load said. Optional in the JSON
    // ("host.pipeline_host_alloc_workers_us"; calibrated before 2026-11-28: absent).
    SizeCurve pipeline_host_alloc_workers_us;
    // A worker's filling samples in the pool run of pipeline_free_us (two workers, no CPU work: its
    // load spans), in GB/s by batch size. In a run with workers the model fills at its ratio to
    // fill_gb_per_s (held flat beyond the sizes it ran). In validate's cells on four H100 VMs
    // (2026-11-27 and 28) a worker's load took 11 to 16 % longer against the model than the
    // consumer's with no workers, with one or two workers as with eight. Optional in the JSON
    // ("host.pipeline_worker_fill_gb_per_s"; calibrated before a8d5883, 2026-11-28: absent).
    SizeCurve pipeline_worker_fill_gb_per_s;
    // The same runs' workers collating their batches (new pages), in GB/s by batch size. In a run
    // with workers the model collates at this rate as it is: the pool run's load is in it, and the
    // profile's factor under load does not come on top (it did until 2026-11-28 afternoon, and on an
    // H200, AS, a worker's collate took 1.25 to 1.33 times the GPU's with three to eight workers; on
    // AV, 2026-11-28 evening, without it, the profile's rate by size and under load put 5 of 23
    // workers' collates within 10 % of the GPU's and this rate 20: docs/benchmarks.md, seventeenth
    // and nineteenth rounds). Optional in the JSON
    // ("host.pipeline_worker_collate_gb_per_s"; calibrated before 11b75af, 2026-11-28: absent).
    SizeCurve pipeline_worker_collate_gb_per_s;
    // The workers' filling and collating in the runs of pipeline_host_alloc_workers_us
    // (kAllocRunWorkers of them), in GB/s by batch size: recorded, not modelled. In validate's cells
    // on fourteen VMs (H100 and H200, 2026-11-27 and 28) a worker filled at a median 0.91 of the idle
    // rate with two workers and 0.87 with four; the one VM with this run (AV) filled at 1.04 times
    // the pool run's rate with four, and its own cells filled at a median 1.03 of the idle rate
    // with one worker, 0.93 with two and 0.97 with seven (4 to 9 cells each): a fall by worker
    // count is not modelled until more VMs say how it goes. Optional in the JSON
    // ("host.pipeline_alloc_workers_fill_gb_per_s", "host.pipeline_alloc_workers_collate_gb_per_s";
    // calibrated before 2026-11-28 evening: absent).
    SizeCurve pipeline_alloc_workers_fill_gb_per_s;
    SizeCurve pipeline_alloc_workers_collate_gb_per_s;
    // The pin thread's frees of the workers' batches in the same runs, in us by batch size:
    // recorded, not modelled (the model frees a worker's batch at pipeline_free_us in every pin
    // mode). In validate's alloc cells on four H200 VMs, replayed at the model of 2026-12-04, the
    // model's free came to a median 0.92 of the GPU's with one or two workers and 0.71 to 0.78 with
    // three to eight (docs/benchmarks.md, twenty-ninth round); the alloc run did not free slower than
    // the pool run on the first VM to record it (thirtieth round), so the model does not take it.
    // Optional in the JSON ("host.pipeline_alloc_workers_free_us"; calibrated before 2026-12-04
    // evening: absent).
    SizeCurve pipeline_alloc_workers_free_us;
    PageLockingWaits waits_for_device;
    DriverLock driver_lock;
    // The share of a cudaHostRegister's length, from its start, for which another thread's munmap
    // waits: the driver holds the process's memory map while it pins the pages. On two H200 VMs
    // (2026-12-02, 512 MiB) a 4 MiB munmap made 2 ms into the call waited until 0.48 and 0.50 of
    // it had passed, and mmap as long; a cudaHostRegister made during a munmap did not wait. So
    // with pin_mode register a consumer's free that begins inside the hold waits for its end.
    // Optional in the JSON ("host.unmap_waits_for_host_register"; calibrated before 2026-12-02: 0).
    double unmap_waits_for_host_register = 0;

    // NUMA, optional in the JSON ("numa"): bandwidth across nodes as a share of the local one.
    // A host-to-device copy from pages on another node than the GPU's runs at h2d x this factor;
    // a host copy by a thread on another node than its destination at memcpy x this factor.
    double cross_node_h2d_factor = 1.0;
    double cross_node_memcpy_factor = 1.0;
    std::string numa_source;                // where the factors come from (measured, or estimated from what)

    ProfileTrust trust;

    // Bytes per second for a host-to-device copy of `bytes`.
    double h2d_bytes_per_s(double bytes, bool pinned) const;
};

// How much longer work on bytes takes when `remote_fraction` of them cross nodes at `factor` of
// the local rate: 1 - remote_fraction + remote_fraction / factor.
double cross_node_slowdown(double remote_fraction, double factor);

// Throws ConfigError naming the field ("profile.h2d_pinned_gb_per_s.values[2]") when invalid.
HardwareProfile profile_from_json(const nlohmann::json& json);
nlohmann::json to_json(const HardwareProfile& profile);

// The profiles built into the program (resources/profiles), by name.
std::vector<std::string> builtin_profile_names();
// A built-in profile by name, or a JSON file by path; throws ConfigError (field "device").
HardwareProfile load_profile(const std::string& name_or_path);
inline constexpr const char* kDefaultProfile = "h200-pcie5";

}  // namespace pinscope
