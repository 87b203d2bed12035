// SPDX-License-Identifier: GPL-3.0-or-later
// Host work for real: this machine's threads, memory and memcpy.
#include <algorithm>
#include <cstring>

#include "engine/clock/SteadyClock.h"
#include "engine/host/HostWork.h"

namespace pinscope {
namespace {

// Bytes transformed between clock reads: with 16 KiB a sample's work ended a mean 1.2 to 2.2 us
// late on an H200 VM (0.9 on the 2-core development machine), three times what cpu_us 1 asks for;
// with 1 KiB, 0.2 to 0.4 us.
constexpr std::size_t kWorkChunk = 1024;

// The per-sample CPU work: passes over the sample's bytes, transforming them in place, until the
// time is spent or the run stops. At least one chunk, so that the work really reads and writes the sample.
void work_on(std::byte* sample, std::size_t bytes, double cpu_us, const std::stop_token& stop) {
    const TimeNs deadline = now_ns() + static_cast<TimeNs>(cpu_us * 1e3);
    auto* words = reinterpret_cast<std::uint32_t*>(sample);
    const std::size_t count = bytes / sizeof(std::uint32_t);
    std::size_t i = 0;
    do {
        const std::size_t chunk_end = std::min(count, i + kWorkChunk / sizeof(std::uint32_t));
        for (; i < chunk_end; ++i) words[i] = words[i] * 1664525u + 1013904223u;
        if (i == count) i = 0;
    } while (now_ns() < deadline && count > 0 && !stop.stop_requested());
}

class RealHostWork final : public HostWork {
public:
    explicit RealHostWork(std::stop_token stop) : stop_(std::move(stop)) {}
    WorkTimes load_samples(std::byte* dst, std::size_t sample_bytes, std::uint32_t count, double cpu_us,
                           std::uint64_t first_sample, TimeNs) override {
        const TimeNs start = now_ns();
        for (std::uint32_t s = 0; s < count; ++s) {
            std::byte* sample = dst + s * sample_bytes;
            fill_sample(sample, sample_bytes, first_sample + s);
            if (cpu_us > 0) work_on(sample, sample_bytes, cpu_us, stop_);
        }
        return {start, now_ns()};
    }
    WorkTimes copy(void* dst, const void* src, std::size_t bytes, HostCopy, TimeNs, double) override {
        const TimeNs start = now_ns();
        std::memcpy(dst, src, bytes);
        return {start, now_ns()};
    }
    WorkTimes free_batch(PageableBuffer& buffer, std::size_t, BatchMemory, int, TimeNs) override {
        const TimeNs start = now_ns();
        buffer.reset();
        return {start, now_ns()};
    }
    bool touches_memory() const override { return true; }

private:
    std::stop_token stop_;
};

}  // namespace

// Distinct for every sample and word, yet written at memory speed (the compiler vectorises it):
// "no CPU work" costs what producing the bytes costs, as a dataset that fills a tensor does.
void fill_sample(std::byte* dst, std::size_t bytes, std::uint64_t sample_index) {
    const auto seed = static_cast<std::uint32_t>(sample_index * 0x9E3779B97F4A7C15ull >> 32);
    const std::size_t words = bytes / sizeof(std::uint32_t);
    for (std::size_t i = 0; i < words; ++i) {
        const std::uint32_t word = seed ^ (static_cast<std::uint32_t>(i) * 0x9E3779B1u);
        std::memcpy(dst + i * sizeof word, &word, sizeof word);  // samples of odd sizes are not 4-byte aligned
    }
    for (std::size_t i = words * sizeof(std::uint32_t); i < bytes; ++i) dst[i] = static_cast<std::byte>(seed >> (8 * (i % 4)));
}

std::unique_ptr<HostWork> make_real_host_work(std::stop_token stop) {
    return std::make_unique<RealHostWork>(std::move(stop));
}

}  // namespace pinscope
