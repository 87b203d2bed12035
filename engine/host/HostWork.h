// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU side of a batch: producing samples (the dataset's __getitem__ with its per-sample work)
// and copying bytes (collate, pin). Either done for real on this machine, or modelled from a
// hardware profile so that a 2-core laptop shows what the profiled 16-core server does.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stop_token>

#include "engine/clock/ModelLag.h"
#include "engine/config/LoaderConfig.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/trace/Span.h"

namespace pinscope {

struct HardwareProfile;
class ModeledMemoryBus;

// What a host copy is, which decides what it costs when modelled.
enum class HostCopy : std::uint8_t {
    CollateNewPages,   // samples into a worker's batch (BatchMemory::NewPages): every page faults in as written
    CollateAllocated,  // samples into the consumer's own batch (BatchMemory::Allocator): reused memory, or not
    CollatePinned,  // samples into a page-locked block (pin in worker)
    PinCached,      // a batch its own thread has just collated (no workers): still in the caches
    PinFromMemory,  // a batch a worker collated earlier: read from memory, not the caches
};

// When a piece of host work ran, on the steady clock.
struct WorkTimes {
    TimeNs start = 0;
    TimeNs end = 0;
};

// Every call takes `ready`, the time its input was ready (the end of the thread's previous stage,
// or when the batch or index it works on arrived). Modelled work starts there rather than when the
// thread got round to it, within a millisecond, so that a busy machine's late wake-ups do not pile
// up into the model; real work starts when it starts.
class HostWork {
public:
    virtual ~HostWork() = default;
    // Writes `count` samples of `sample_bytes` each into `dst`, with `cpu_us` of work per sample.
    virtual WorkTimes load_samples(std::byte* dst, std::size_t sample_bytes, std::uint32_t count, double cpu_us,
                                   std::uint64_t first_sample, TimeNs ready) = 0;
    // Copies `bytes` from `src` to `dst` (collate into a batch, or pin into page-locked memory).
    // `remote_fraction`: the share of `dst` on another NUMA node than this thread's (modelled work
    // charges the profile's cross-node memcpy factor for it; real work pays what the machine charges).
    virtual WorkTimes copy(void* dst, const void* src, std::size_t bytes, HostCopy kind, TimeNs ready,
                           double remote_fraction) = 0;
    // Frees a batch's pageable buffer, from `memory`, once nothing reads it (after its pin copy, or
    // its pageable copy's staging): a real munmap costs about a millisecond for a 38.5 MB batch,
    // and more while the process runs `worker_threads` loader workers, streaming or not, since it
    // takes the process's memory-map lock and flushes the TLBs of the CPUs they ran on. Modelled,
    // the profile's cost is charged, and a real buffer (a batch registered in place) is released within it.
    virtual WorkTimes free_batch(PageableBuffer& buffer, std::size_t bytes, BatchMemory memory, int worker_threads,
                                 TimeNs ready) = 0;
    // Whether sample and batch buffers hold real data (false: modelled, the bytes are never touched).
    virtual bool touches_memory() const = 0;
};

// Modeled needs a profile, and shares `bus` with the emulated device's pageable staging (a bus of
// its own when null); Real ignores both. Once `stop` is requested, work in progress ends at once
// (its WorkTimes end at the stop) and later work takes no time.
// `lag`: where modelled work counts the time this machine fell behind the model (may be null).
// `loader_workers`: the run's; with some, modelled loads fill samples as the profile's workers did
// in calibrate's pool run and collate batches at that run's workers' rate, where it has that
// (pipeline_worker_fill_gb_per_s, pipeline_worker_collate_gb_per_s).
std::unique_ptr<HostWork> make_host_work(HostMode mode, const HardwareProfile& profile,
                                         std::shared_ptr<ModeledMemoryBus> bus = nullptr, std::stop_token stop = {},
                                         std::shared_ptr<ModelLag> lag = nullptr, int loader_workers = 0);

// The byte pattern of a sample, before its CPU work: what a GPU-side checksum can check against.
void fill_sample(std::byte* dst, std::size_t bytes, std::uint64_t sample_index);

}  // namespace pinscope
