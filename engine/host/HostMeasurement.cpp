// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/host/HostMeasurement.h"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/host/HostWork.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/metrics/Median.h"

namespace pinscope {

namespace {

constexpr std::size_t kMinMemcpyBytes = std::size_t{256} << 20;

// A loaded hwloc topology of this machine (restricted to what this process may use, hwloc's
// default), or none.
class Topology {
public:
    Topology() {
        if (hwloc_topology_init(&topology_) != 0) {
            topology_ = nullptr;
            return;
        }
        if (hwloc_topology_load(topology_) != 0) {
            hwloc_topology_destroy(topology_);
            topology_ = nullptr;
        }
    }
    ~Topology() {
        if (topology_ != nullptr) hwloc_topology_destroy(topology_);
    }
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    hwloc_topology_t get() const { return topology_; }

private:
    hwloc_topology_t topology_ = nullptr;
};

}  // namespace

HostCores count_host_cores() {
    const Topology topology;
    if (topology.get() != nullptr) {
        const int cores = hwloc_get_nbobjs_by_type(topology.get(), HWLOC_OBJ_CORE);
        const int threads = hwloc_get_nbobjs_by_type(topology.get(), HWLOC_OBJ_PU);
        if (cores > 0) return HostCores{cores, std::max(cores, threads), "hwloc"};
    }
    const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return HostCores{threads, threads, "std::thread::hardware_concurrency (hwloc could not read the topology)"};
}

std::size_t largest_cache_bytes() {
    const Topology topology;
    if (topology.get() == nullptr) return 0;
    std::size_t largest = 0;
    for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topology.get(), HWLOC_OBJ_L3CACHE, nullptr); obj != nullptr;
         obj = hwloc_get_next_obj_by_type(topology.get(), HWLOC_OBJ_L3CACHE, obj))
        largest = std::max<std::size_t>(largest, obj->attr->cache.size);
    for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topology.get(), HWLOC_OBJ_L2CACHE, nullptr); obj != nullptr;
         obj = hwloc_get_next_obj_by_type(topology.get(), HWLOC_OBJ_L2CACHE, obj))
        largest = std::max<std::size_t>(largest, obj->attr->cache.size);
    return largest;
}

std::size_t memcpy_buffer_bytes() { return std::max(kMinMemcpyBytes, 4 * largest_cache_bytes()); }

double measure_memcpy_gb_per_s(std::size_t bytes, int samples) {
    bytes = std::max<std::size_t>(bytes, 1);
    const PageableBuffer source = allocate_pageable(bytes);
    const PageableBuffer target = allocate_pageable(bytes);
    std::memset(source.get(), 1, bytes);
    std::memset(target.get(), 0, bytes);
    std::memcpy(target.get(), source.get(), bytes);  // untimed: page tables and TLBs warm
    std::vector<double> rates;
    for (int i = 0; i < std::max(1, samples); ++i) {
        const TimeNs start = now_ns();
        std::memcpy(target.get(), source.get(), bytes);
        const TimeNs end = now_ns();
        rates.push_back(static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start)));
    }
    // Read what was copied, so that no copy can be optimised away as a dead store.
    if (std::to_integer<int>(target[bytes - 1]) != 1) throw std::logic_error("memcpy measurement: copy went wrong");
    return median(std::move(rates));
}

double measure_fill_gb_per_s(std::size_t bytes, int samples) {
    bytes = std::max<std::size_t>(bytes, 1);
    const PageableBuffer buffer = allocate_pageable(bytes);
    fill_sample(buffer.get(), bytes, 0);  // untimed: pages faulted in, as a worker's reused sample buffer
    std::vector<double> rates;
    for (int i = 1; i <= std::max(1, samples); ++i) {
        const TimeNs start = now_ns();
        fill_sample(buffer.get(), bytes, static_cast<std::uint64_t>(i));
        const TimeNs end = now_ns();
        asm volatile("" : : "r"(buffer.get()) : "memory");
        rates.push_back(static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start)));
    }
    return median(std::move(rates));
}

void evict_caches() {
    static const std::size_t bytes = memcpy_buffer_bytes();
    static const PageableBuffer scratch = allocate_pageable(bytes);
    static int round = 0;
    std::memset(scratch.get(), ++round, bytes);
    asm volatile("" : : "r"(scratch.get()) : "memory");
}

namespace {

// The CPUs in `cpus` but `here`; nullopt when there is no other.
std::optional<cpu_set_t> all_but(cpu_set_t cpus, int here) {
    if (here < 0 || !CPU_ISSET(here, &cpus) || CPU_COUNT(&cpus) < 2) return std::nullopt;
    CPU_CLR(here, &cpus);
    return cpus;
}

// The CPUs this thread may use but the one it is on; nullopt when there is no other.
std::optional<cpu_set_t> other_cpus() {
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof(cpus), &cpus) != 0) return std::nullopt;
    return all_but(cpus, sched_getcpu());
}

// Runs `work` on a thread kept to `cpus` (best effort; anywhere without them), and waits for it.
template <typename Work>
void on_cpus(const std::optional<cpu_set_t>& cpus, Work&& work) {
    std::thread thread([&] {
        if (cpus) sched_setaffinity(0, sizeof(*cpus), &*cpus);
        work();
    });
    thread.join();
}

// `count` batches of new pages collated by a thread kept off the calling thread's CPU, as a worker's are.
std::vector<PageableBuffer> batches_from_another_cpu(const std::byte* samples, std::size_t bytes, int count) {
    std::vector<PageableBuffer> batches;
    on_cpus(other_cpus(), [&] {
        for (int i = 0; i < count; ++i) batches.push_back(collated_batch(samples, bytes, BatchMemory::NewPages));
    });
    return batches;
}

// Keeps the calling thread on the CPU it is on while it lives (best effort), so that work handed
// to the others() stays off it; then gives back the CPUs it had.
class StayOnThisCpu {
public:
    StayOnThisCpu() {
        const int here = sched_getcpu();
        if (here < 0 || sched_getaffinity(0, sizeof(before_), &before_) != 0) return;
        cpu_set_t only;
        CPU_ZERO(&only);
        CPU_SET(here, &only);
        pinned_ = sched_setaffinity(0, sizeof(only), &only) == 0;
        if (pinned_) others_ = all_but(before_, here);
    }
    ~StayOnThisCpu() {
        if (pinned_) sched_setaffinity(0, sizeof(before_), &before_);
    }
    StayOnThisCpu(const StayOnThisCpu&) = delete;
    StayOnThisCpu& operator=(const StayOnThisCpu&) = delete;

    // The CPUs the thread had but this one: nullopt when it had no other, or could not be kept here.
    const std::optional<cpu_set_t>& others() const { return others_; }

private:
    cpu_set_t before_{};
    bool pinned_ = false;
    std::optional<cpu_set_t> others_;
};

// Frees a worker's batch on one of `elsewhere`, as the pin thread does on its own CPU, and returns
// what the free took (us). Its pages then go back to that CPU's lists of free pages, not the
// worker's, whose next batch faults in pages from the kernel's zones. Freed on the worker's own CPU
// they come back at once: on the development machine collating 1 MiB into new pages ran at 3.9
// GB/s freed there and 1.5 freed on the other CPU (36.75 MiB: 1.9 and 1.75), and the pipeline on
// the H100 collated 1.4 to 3 MB batches at calibrate's 36.75 MiB rate.
double free_on(const std::optional<cpu_set_t>& elsewhere, PageableBuffer& batch) {
    double took_us = 0;
    on_cpus(elsewhere, [&] {
        const TimeNs start = now_ns();
        batch.reset();
        took_us = static_cast<double>(now_ns() - start) / 1e3;
    });
    return took_us;
}

}  // namespace

double measure_handed_over_free_us(std::size_t bytes, int samples) {
    bytes = std::max<std::size_t>(bytes, 1);
    samples = std::max(1, samples);
    const PageableBuffer source = allocate_pageable(bytes);
    std::memset(source.get(), 1, bytes);
    std::vector<PageableBuffer> handed_over = batches_from_another_cpu(source.get(), bytes, samples);
    evict_caches();
    std::vector<double> costs;
    for (PageableBuffer& batch : handed_over) {
        const TimeNs start = now_ns();
        batch.reset();
        costs.push_back(static_cast<double>(now_ns() - start) / 1e3);
    }
    return median(std::move(costs));
}

PageableBuffer collated_batch(const std::byte* samples, std::size_t bytes, BatchMemory memory) {
    PageableBuffer batch = allocate_batch(bytes, memory);
    std::memcpy(batch.get(), samples, bytes);
    asm volatile("" : : "r"(batch.get()) : "memory");
    return batch;
}

double rate_over_collated_batches(std::size_t bytes, BatchState state, int samples,
                                  const std::function<void(const std::byte*)>& read) {
    bytes = std::max<std::size_t>(bytes, 1);
    const PageableBuffer source = allocate_pageable(bytes);
    std::memset(source.get(), 0x5A, bytes);
    std::vector<double> rates;
    for (int i = 0; i <= std::max(1, samples); ++i) {
        const PageableBuffer batch = collated_batch(source.get(), bytes);
        if (state == BatchState::InMemory) evict_caches();
        const TimeNs start = now_ns();
        read(batch.get());
        const TimeNs end = now_ns();
        if (i > 0) rates.push_back(static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start)));
    }
    return median(std::move(rates));
}

double measure_pin_copy_gb_per_s(std::size_t bytes, int samples) {
    bytes = std::max<std::size_t>(bytes, 1);
    const PageableBuffer block = allocate_pageable(bytes);
    std::memset(block.get(), 0, bytes);  // resident, as a page-locked block is
    return rate_over_collated_batches(bytes, BatchState::JustCollated, samples, [&](const std::byte* batch) {
        std::memcpy(block.get(), batch, bytes);
        asm volatile("" : : "r"(block.get()) : "memory");
    });
}

BatchLoopRates measure_batch_loop(std::size_t bytes, int batches, BatchMemory memory) {
    bytes = std::max<std::size_t>(bytes, 1);
    batches = std::max(1, batches);
    constexpr int kUntimed = 2;
    std::vector<double> collate, pin, free_us;
    std::thread worker([&] {
        // A worker's batch is freed on another CPU, never this one.
        const StayOnThisCpu here;
        const PageableBuffer samples = allocate_pageable(bytes);
        // A pool block: its pages long in place, and, as cudaHostAlloc's, not the allocator's (it
        // would take room in this thread's arena that the batches then lack).
        const PageableBuffer pinned = allocate_batch(bytes, BatchMemory::NewPages);
        std::memset(pinned.get(), 0, bytes);
        fill_sample(samples.get(), bytes, 0);
        PageableBuffer previous;
        const auto rate = [bytes](TimeNs start, TimeNs end) {
            return static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start));
        };
        const bool pin_own_batch = memory == BatchMemory::Allocator;
        for (int i = 0; i < batches + kUntimed; ++i) {
            fill_sample(samples.get(), bytes, static_cast<std::uint64_t>(i) + 1);
            const TimeNs filled = now_ns();
            PageableBuffer batch = collated_batch(samples.get(), bytes, memory);
            const TimeNs collated = now_ns();
            if (!pin_own_batch) std::swap(batch, previous);
            if (!batch) continue;  // the first worker's batch waits for the next
            std::memcpy(pinned.get(), batch.get(), bytes);
            asm volatile("" : : "r"(pinned.get()) : "memory");
            const TimeNs pinned_at = now_ns();
            double freed_us = 0;
            if (pin_own_batch) {
                batch.reset();
                freed_us = static_cast<double>(now_ns() - pinned_at) / 1e3;
            } else {
                freed_us = free_on(here.others(), batch);
            }
            if (i < kUntimed) continue;
            collate.push_back(rate(filled, collated));
            pin.push_back(rate(collated, pinned_at));
            free_us.push_back(freed_us);
        }
    });
    worker.join();
    return {median(std::move(collate)), median(std::move(pin)), median(std::move(free_us))};
}

MemoryThroughput measure_memory_throughput(int threads, std::size_t bytes, double seconds) {
    threads = std::max(1, threads);
    bytes = std::max<std::size_t>(bytes, 1);
    const TimeNs window = duration_ns(std::max(seconds, 1e-3) * 1e9);
    std::barrier together(threads);
    std::vector<double> copy_rates(static_cast<std::size_t>(threads)), fill_rates(static_cast<std::size_t>(threads));
    // Streams `step` over and over from when all threads are ready until `window` has passed: bytes
    // per ns of this thread's own time.
    const auto stream = [&](const auto& step) {
        together.arrive_and_wait();
        const TimeNs start = now_ns();
        TimeNs end = start;
        double moved = 0;
        for (std::uint64_t round = 1; end - start < window; ++round) {
            step(round);
            moved += static_cast<double>(bytes);
            end = now_ns();
        }
        return moved / static_cast<double>(std::max<TimeNs>(1, end - start));
    };
    // Allocated here, so that a failure throws before any thread waits for the others; each thread
    // touches its own first, so that its pages are on its node.
    std::vector<PageableBuffer> sources, targets;
    for (int t = 0; t < threads; ++t) {
        sources.push_back(allocate_pageable(bytes));
        targets.push_back(allocate_pageable(bytes));
    }
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t) {
        running.emplace_back([&, t] {
            const auto i = static_cast<std::size_t>(t);
            const PageableBuffer& source = sources[i];
            const PageableBuffer& target = targets[i];
            std::memset(source.get(), 1, bytes);
            std::memset(target.get(), 0, bytes);
            copy_rates[i] = stream([&](std::uint64_t) {
                std::memcpy(target.get(), source.get(), bytes);
                asm volatile("" : : "r"(target.get()) : "memory");
            });
            fill_rates[i] = stream([&](std::uint64_t round) {
                fill_sample(target.get(), bytes, round);
                asm volatile("" : : "r"(target.get()) : "memory");
            });
        });
    }
    for (std::thread& thread : running) thread.join();
    MemoryThroughput total;
    for (const double rate : copy_rates) total.copy_gb_per_s += rate;
    for (const double rate : fill_rates) total.fill_gb_per_s += rate;
    return total;
}

BackgroundLoad::BackgroundLoad(int threads, std::size_t bytes) {
    bytes = std::max<std::size_t>(bytes, 1);
    for (int t = 0; t < threads; ++t) {
        threads_.emplace_back([this, bytes, t, threads_count = threads] {
            const PageableBuffer samples = allocate_pageable(bytes);
            std::uint64_t round = 0;
            while (!stop_.load(std::memory_order_relaxed)) {
                fill_sample(samples.get(), bytes, round++ * static_cast<std::uint64_t>(threads_count) + static_cast<std::uint64_t>(t));
                const PageableBuffer batch = collated_batch(samples.get(), bytes);
            }
        });
    }
    // Every thread is past its first allocation and streaming before anything is measured.
    std::this_thread::sleep_for(std::chrono::milliseconds(threads > 0 ? 50 : 0));
}

BackgroundLoad::~BackgroundLoad() {
    stop_ = true;
    for (std::thread& thread : threads_) thread.join();
}

double measure_first_touch_gb_per_s(std::size_t bytes, int samples) {
    bytes = std::max<std::size_t>(bytes, 1);
    const StayOnThisCpu here;
    const PageableBuffer source = allocate_pageable(bytes);
    std::vector<double> rates;
    for (int i = 0; i < std::max(1, samples); ++i) {
        fill_sample(source.get(), bytes, static_cast<std::uint64_t>(i));  // in the caches, as a worker's samples are
        PageableBuffer target = allocate_batch(bytes, BatchMemory::NewPages);
        const TimeNs start = now_ns();
        std::memcpy(target.get(), source.get(), bytes);
        const TimeNs end = now_ns();
        if (target[bytes - 1] != source[bytes - 1]) throw std::logic_error("first-touch measurement: copy went wrong");
        rates.push_back(static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start)));
        free_on(here.others(), target);  // as the pin thread frees a worker's batch
    }
    return median(std::move(rates));
}

}  // namespace pinscope
