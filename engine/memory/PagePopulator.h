// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Faults in the pages of locked ranges on a background thread. With the host modelled, page
// locking must cost the profile's time, not this machine's (populating 64 MiB can take 100 ms on a
// small VM); the memory is still really locked and resident soon after, so the footprint is real.
// It faults pages in on the CPUs of the thread that asked, so that first touch places them where
// that thread would have.
#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>

namespace pinscope {

class PagePopulator {
public:
    PagePopulator();
    ~PagePopulator();
    PagePopulator(const PagePopulator&) = delete;
    PagePopulator& operator=(const PagePopulator&) = delete;

    void populate(void* ptr, std::size_t bytes);
    // Before a range is unmapped or unlocked: drops it from the queue, or ends its population
    // early and waits for the page in hand.
    void forget(void* ptr);

private:
    struct Range {
        std::byte* ptr;
        std::size_t bytes;
        cpu_set_t cpus;  // the requesting thread's affinity
    };
    void main();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Range> queue_;
    void* busy_with_ = nullptr;
    std::atomic<void*> forgotten_{nullptr};  // the range in hand is to be left as it is
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace pinscope
