// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Threads that keep every core busy while they live (twice as many as the machine has): what a
// parallel build does to a laptop, for tests of what must not change when the machine is loaded.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace pinscope::test {

class CpuHogs {
public:
    CpuHogs() {
        const unsigned n = 2 * std::max(1u, std::thread::hardware_concurrency());
        for (unsigned k = 0; k < n; ++k)
            hogs_.emplace_back([this] {
                while (!stop_.load(std::memory_order_relaxed)) spins_.fetch_add(1, std::memory_order_relaxed);
            });
    }
    ~CpuHogs() {
        stop_ = true;
        for (std::thread& hog : hogs_) hog.join();
    }
    CpuHogs(const CpuHogs&) = delete;
    CpuHogs& operator=(const CpuHogs&) = delete;

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> spins_{0};
    std::vector<std::thread> hogs_;
};

}  // namespace pinscope::test
