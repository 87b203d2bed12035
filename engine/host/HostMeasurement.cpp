// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/host/HostMeasurement.h"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstring>
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

// `count` batches of new pages collated by a thread kept off the calling thread's CPU, as a worker's are.
std::vector<PageableBuffer> batches_from_another_cpu(const std::byte* samples, std::size_t bytes, int count) {
    cpu_set_t elsewhere;
    const int here = sched_getcpu();
    const bool can_move = sched_getaffinity(0, sizeof(elsewhere), &elsewhere) == 0 && here >= 0 &&
                          CPU_ISSET(here, &elsewhere) && CPU_COUNT(&elsewhere) > 1;
    if (can_move) CPU_CLR(here, &elsewhere);
    std::vector<PageableBuffer> batches;
    std::thread worker([&] {
        if (can_move) sched_setaffinity(0, sizeof(elsewhere), &elsewhere);  // best effort
        for (int i = 0; i < count; ++i) batches.push_back(collated_batch(samples, bytes, BatchMemory::NewPages));
    });
    worker.join();
    return batches;
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

BatchLoopRates measure_batch_loop(std::size_t bytes, int batches, BatchMemory memory) {
    bytes = std::max<std::size_t>(bytes, 1);
    batches = std::max(1, batches);
    constexpr int kUntimed = 2;
    std::vector<double> fill, collate, pin, free_us;
    std::thread worker([&] {
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
            const TimeNs start = now_ns();
            fill_sample(samples.get(), bytes, static_cast<std::uint64_t>(i) + 1);
            const TimeNs filled = now_ns();
            PageableBuffer batch = collated_batch(samples.get(), bytes, memory);
            const TimeNs collated = now_ns();
            if (!pin_own_batch) std::swap(batch, previous);
            if (!batch) continue;  // the first worker's batch waits for the next
            std::memcpy(pinned.get(), batch.get(), bytes);
            asm volatile("" : : "r"(pinned.get()) : "memory");
            const TimeNs pinned_at = now_ns();
            batch.reset();
            const TimeNs freed = now_ns();
            if (i < kUntimed) continue;
            fill.push_back(rate(start, filled));
            collate.push_back(rate(filled, collated));
            pin.push_back(rate(collated, pinned_at));
            free_us.push_back(static_cast<double>(freed - pinned_at) / 1e3);
        }
    });
    worker.join();
    return {median(std::move(fill)), median(std::move(collate)), median(std::move(pin)), median(std::move(free_us))};
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
    const PageableBuffer source = allocate_pageable(bytes);
    std::vector<double> rates;
    for (int i = 0; i < std::max(1, samples); ++i) {
        fill_sample(source.get(), bytes, static_cast<std::uint64_t>(i));  // in the caches, as a worker's samples are
        const PageableBuffer target = allocate_batch(bytes, BatchMemory::NewPages);
        const TimeNs start = now_ns();
        std::memcpy(target.get(), source.get(), bytes);
        const TimeNs end = now_ns();
        if (target[bytes - 1] != source[bytes - 1]) throw std::logic_error("first-touch measurement: copy went wrong");
        rates.push_back(static_cast<double>(bytes) / static_cast<double>(std::max<TimeNs>(1, end - start)));
    }
    return median(std::move(rates));
}

}  // namespace pinscope
