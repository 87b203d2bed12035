// SPDX-License-Identifier: GPL-3.0-or-later
// Where a batch's pageable buffer comes from, as in PyTorch: a worker's in new pages (its shared
// memory), the consumer's own (no workers) from the allocator; the model is told which, so that it
// charges the collate and the free that each costs.
#include <gtest/gtest.h>

#include <mutex>
#include <set>

#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/memory/PinnedPool.h"
#include "engine/pipeline/LoaderPipeline.h"
#include "engine/trace/Trace.h"
#include "engine/text/Units.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

// Real host work that notes which collates and frees the pipeline asked for, and how each freed
// batch's buffer was made.
class NotingHostWork final : public HostWork {
public:
    NotingHostWork() : real_(make_host_work(HostMode::Real, load_profile(kDefaultProfile))) {}
    WorkTimes load_samples(std::byte* dst, std::size_t sample_bytes, std::uint32_t count, double cpu_us,
                           std::uint64_t first_sample, TimeNs ready) override {
        return real_->load_samples(dst, sample_bytes, count, cpu_us, first_sample, ready);
    }
    WorkTimes copy(void* dst, const void* src, std::size_t bytes, HostCopy kind, TimeNs ready, double remote) override {
        note([&] { copies.insert(kind); });
        return real_->copy(dst, src, bytes, kind, ready, remote);
    }
    WorkTimes free_batch(PageableBuffer& buffer, std::size_t bytes, BatchMemory memory, int workers, TimeNs ready) override {
        const bool mapped = buffer.get_deleter().mapped_bytes > 0;
        note([&] {
            frees.insert(memory);
            buffers_mapped.insert(mapped);
        });
        return real_->free_batch(buffer, bytes, memory, workers, ready);
    }
    bool touches_memory() const override { return true; }

    std::set<HostCopy> copies;
    std::set<BatchMemory> frees;
    std::set<bool> buffers_mapped;

private:
    template <class F>
    void note(F&& f) {
        std::lock_guard lock(mutex_);
        f();
    }
    std::mutex mutex_;
    std::unique_ptr<HostWork> real_;
};

void run_pipeline(std::uint32_t workers, bool pin_memory, NotingHostWork& host) {
    LoaderConfig config = test::small_config(workers, pin_memory, 12);
    config.cpu_us_per_sample = 0;
    EmulatedDevice device(load_profile(kDefaultProfile), HostMode::Real);
    PinnedPool pool(device, 64 * kMiB);
    Trace trace(1024);
    PipelineGauges gauges;
    LoaderPipeline pipeline(config, device, host, pool, trace, gauges);
    const std::atomic<bool> drain{false};
    PipelineLimits limits;
    limits.end_batch = 12;
    pipeline.run(limits, drain, std::stop_source{});
    pool.release_all();
}

TEST(BatchMemory, AWorkersBatchIsNewPagesAndTheConsumersOwnComesFromTheAllocator) {
    struct Case {
        std::uint32_t workers;
        HostCopy collate;
        HostCopy not_collate;
        BatchMemory memory;
        bool mapped;
    };
    for (const Case& c : {Case{2, HostCopy::CollateNewPages, HostCopy::CollateAllocated, BatchMemory::NewPages, true},
                          Case{0, HostCopy::CollateAllocated, HostCopy::CollateNewPages, BatchMemory::Allocator, false}})
        for (const bool pin_memory : {false, true}) {
            NotingHostWork host;
            run_pipeline(c.workers, pin_memory, host);
            EXPECT_EQ(host.copies.count(c.collate), 1u) << c.workers << " workers";
            EXPECT_EQ(host.copies.count(c.not_collate), 0u) << c.workers << " workers";
            EXPECT_EQ(host.frees, std::set<BatchMemory>{c.memory}) << c.workers << " workers";
            EXPECT_EQ(host.buffers_mapped, std::set<bool>{c.mapped}) << c.workers << " workers";
        }
}

}  // namespace
}  // namespace pinscope
