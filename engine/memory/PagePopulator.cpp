// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memory/PagePopulator.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>

namespace pinscope {

PagePopulator::PagePopulator() : thread_(&PagePopulator::main, this) {}

PagePopulator::~PagePopulator() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    changed_.notify_all();
    thread_.join();
}

void PagePopulator::populate(void* ptr, std::size_t bytes) {
    Range range{static_cast<std::byte*>(ptr), bytes, {}};
    CPU_ZERO(&range.cpus);
    pthread_getaffinity_np(pthread_self(), sizeof range.cpus, &range.cpus);
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(range);
    }
    changed_.notify_all();
}

void PagePopulator::forget(void* ptr) {
    std::unique_lock lock(mutex_);
    std::erase_if(queue_, [&](const Range& r) { return r.ptr == ptr; });
    if (busy_with_ == ptr) forgotten_ = ptr;
    changed_.wait(lock, [&] { return busy_with_ != ptr; });
}

void PagePopulator::main() {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    cpu_set_t current;
    CPU_ZERO(&current);
    pthread_getaffinity_np(pthread_self(), sizeof current, &current);
    std::unique_lock lock(mutex_);
    while (true) {
        changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        const Range range = queue_.front();
        queue_.pop_front();
        busy_with_ = range.ptr;
        lock.unlock();
        if (CPU_COUNT(&range.cpus) > 0 && !CPU_EQUAL(&range.cpus, &current) &&
            pthread_setaffinity_np(pthread_self(), sizeof range.cpus, &range.cpus) == 0)
            current = range.cpus;
        // One write per page faults it in (and, the range being locked on fault, locks it).
        for (std::size_t offset = 0; offset < range.bytes && forgotten_.load(std::memory_order_relaxed) != range.ptr;
             offset += page)
            *static_cast<volatile std::byte*>(range.ptr + offset) = std::byte{0};
        lock.lock();
        busy_with_ = nullptr;
        forgotten_ = nullptr;
        changed_.notify_all();
    }
}

}  // namespace pinscope
