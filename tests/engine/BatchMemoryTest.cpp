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

void run_pipeline(LoaderConfig config, EmulatedDevice& device, HostWork& host, Trace& trace) {
    PinnedPool pool(device, 64 * kMiB);
    PipelineGauges gauges;
    {
        LoaderPipeline pipeline(config, device, host, pool, trace, gauges);
        const std::atomic<bool> drain{false};
        PipelineLimits limits;
        limits.end_batch = *config.batches;
        pipeline.run(limits, drain, std::stop_source{});
    }
    pool.release_all();
}

void run_pipeline(std::uint32_t workers, bool pin_memory, NotingHostWork& host, PinMode mode = PinMode::Pool) {
    LoaderConfig config = test::small_config(workers, pin_memory, 12);
    config.cpu_us_per_sample = 0;
    config.pin_mode = mode;
    EmulatedDevice device(load_profile(kDefaultProfile), HostMode::Real);
    Trace trace(1024);
    run_pipeline(config, device, host, trace);
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

// A batch registered in place is freed, once unregistered, by the run's host work as every other
// batch is, so that a modelled host charges the profiled machine's free rather than this one's.
TEST(BatchMemory, ABatchRegisteredInPlaceIsFreedByTheRunsHostWork) {
    for (const std::uint32_t workers : {2u, 0u}) {
        NotingHostWork host;
        run_pipeline(workers, true, host, PinMode::Register);
        const BatchMemory memory = workers > 0 ? BatchMemory::NewPages : BatchMemory::Allocator;
        EXPECT_EQ(host.frees, std::set<BatchMemory>{memory}) << workers << " workers";
    }
}

TEST(BatchMemory, AModelledHostChargesARegisteredBatchsUnregisterAndItsFree) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.waits_for_device = {};
    profile.driver_lock = {};
    constexpr double kUnregisterUs = 3000;
    constexpr double kFreeUs = 4000;
    profile.host_unregister_us = SizeCurve{{1, 1 << 30}, {kUnregisterUs, kUnregisterUs}};  // at every size
    profile.free_new_pages_us = SizeCurve{{1, 1 << 30}, {kFreeUs, kFreeUs}};
    LoaderConfig config = test::small_config(2, true, 6);
    config.pin_mode = PinMode::Register;
    EmulatedDevice device(profile, HostMode::Modeled);
    const auto host = make_host_work(HostMode::Modeled, profile);
    Trace trace(1024);
    run_pipeline(config, device, *host, trace);
    TraceReader reader(trace);
    TraceDelta delta;
    reader.poll(delta);
    int frees = 0;
    for (const Span& span : delta.spans)
        if (span.stage == Stage::Free) {
            ++frees;
            EXPECT_GE(static_cast<double>(span.end - span.start) / 1e3, kUnregisterUs + kFreeUs) << "batch " << span.batch;
        }
    EXPECT_EQ(frees, 6);
}

}  // namespace
}  // namespace pinscope
