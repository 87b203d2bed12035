// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The host's side of a hardware profile, measured on this machine without the GPU: its cores, how
// fast one thread copies, fills and first-touches memory, and what freeing a pageable buffer costs;
// and what calibration measures with: cache eviction, collated batches and background load.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "engine/device/CalibrationProbe.h"
#include "engine/memory/PageLockedMemory.h"

namespace pinscope {

struct HostCores {
    int cores = 1;           // physical cores this process may run on
    int threads = 1;         // hardware threads (PUs) among them
    std::string counted_by;  // "hwloc" or "std::thread::hardware_concurrency (hwloc failed)"
};

// hwloc's count of the cores in this process's allowed cpuset; hardware_concurrency when hwloc
// cannot load the topology.
HostCores count_host_cores();

// The largest CPU cache on this machine in bytes (hwloc), 0 when unknown.
std::size_t largest_cache_bytes();

// Buffers "far larger than the last-level cache": 256 MiB, or 4 times the largest cache.
std::size_t memcpy_buffer_bytes();

// One thread, memcpy between two pageable buffers of `bytes` each (touched first): the median
// of `samples` timed copies after one untimed one, in GB/s (1e9 bytes).
double measure_memcpy_gb_per_s(std::size_t bytes, int samples);

// One thread, memcpy into a new batch buffer of `bytes` (allocate_batch: every page faults in as
// it is written, as in the pipeline's batches) from samples it has just filled, each batch then
// freed on another CPU as the pin thread frees a worker's: the median of `samples`, in GB/s.
double measure_first_touch_gb_per_s(std::size_t bytes, int samples);

// One thread filling a reused buffer of `bytes` with samples (fill_sample, what a load with no CPU
// work costs): the median of `samples`, in GB/s.
double measure_fill_gb_per_s(std::size_t bytes, int samples);

// Freeing a worker's batch of `bytes` (new pages) that another thread on another CPU allocated and
// wrote, then pushed out of the caches, as the pin thread or the consumer frees it: munmap, a TLB
// shootdown on every CPU the process runs on, and pages returned to the kernel's allocator from
// this CPU, which costs more when another CPU took them. The median of `samples`, in us.
double measure_handed_over_free_us(std::size_t bytes, int samples);

// Writes a buffer four times the largest cache (memcpy_buffer_bytes), so that what was there
// before is read from memory next, as a batch that waited in a queue while workers streamed is.
void evict_caches();

// A batch as the pipeline hands it on: `bytes` from `memory` (allocate_batch) written by memcpy from
// `samples` (large copies bypass the caches, so what reads it next reads memory, as a pin copy does).
PageableBuffer collated_batch(const std::byte* samples, std::size_t bytes, BatchMemory memory = BatchMemory::NewPages);

// GB/s of `read` over batches of `bytes` collated a moment before (collated_batch), or collated
// and then pushed out of the caches (BatchState::InMemory): the median of `samples` after one untimed.
double rate_over_collated_batches(std::size_t bytes, BatchState state, int samples,
                                  const std::function<void(const std::byte*)>& read);

// One thread copying a batch it has just collated into a reused buffer whose pages are resident:
// what a pin copy into page-locked memory costs the CPU (to memcpy, locked pages are resident
// pages), as calibrate's memcpy_to_pinned_gb_per_s measures it without a GPU. GB/s, median of `samples`.
double measure_pin_copy_gb_per_s(std::size_t bytes, int samples);

// Batches in a row at one batch size, on a thread of its own, as the pipeline makes them: fill the
// samples into a reused buffer, collate them into a new batch from `memory`, copy a batch into a
// reused buffer (what a pin copy into a pool block does) and free it. From the allocator, the batch
// is the consumer's own (no workers): pinned and freed before the next is allocated, so glibc hands
// its memory back (below its mmap threshold, which rises to at most 32 MiB). On new pages, it is a
// worker's: the pin copy reads the batch before, collated earlier, and a thread on another CPU
// unmaps it (as the pin thread does), so two are alive and freed pages never come back at once.
// What changes with the size is how much stays in the caches and TLBs, what a page fault costs
// against the bytes written, and whether memory is reused. Rates in GB/s (1e9 bytes) and the free
// after the pin copy in us (on the other CPU for a worker's), each the median of `batches` after
// two untimed ones.
struct BatchLoopRates {
    double collate_gb_per_s = 0;
    double pin_gb_per_s = 0;
    double free_us = 0;
};
BatchLoopRates measure_batch_loop(std::size_t bytes, int batches, BatchMemory memory);

// `threads` threads at once, as loader workers that collate into page-locked blocks: each memcpy's
// between two reused buffers of `bytes` (touched first) for about `seconds`, then fills one with
// samples (fill_sample) as long. Rates are the sum of every thread's bytes over its own time, in
// GB/s (1e9 bytes): far beyond the caches, what the machine's memory gives all of them together.
struct MemoryThroughput {
    double copy_gb_per_s = 0;
    double fill_gb_per_s = 0;
};
MemoryThroughput measure_memory_throughput(int threads, std::size_t bytes, double seconds);

// `threads` threads streaming through memory as loader workers do, for as long as it lives: each
// fills a buffer of `bytes`, copies it into a freshly allocated one and frees that, over and over.
// What one thread's copies are measured against to see how they slow on a busy host.
class BackgroundLoad {
public:
    BackgroundLoad(int threads, std::size_t bytes);
    ~BackgroundLoad();  // stops and joins the threads
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;

private:
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

}  // namespace pinscope
