// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The DataLoader: workers build batches from indices sent round robin, a pin thread copies them
// into page-locked memory, and the consumer takes them in index order, copies each to the device
// and launches its kernel. One LoaderPipeline runs one configuration; the runner makes a new one
// when the configuration changes.
#include <atomic>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

#include "engine/clock/RunThread.h"
#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/host/HostWork.h"
#include "engine/memory/PinnedPool.h"
#include "engine/numa/NumaTracker.h"
#include "engine/pipeline/Batch.h"
#include "engine/pipeline/BlockingQueue.h"
#include "engine/pipeline/PipelineGauges.h"
#include "engine/trace/LaneRecorder.h"

namespace pinscope {

struct PipelineLimits {
    std::uint64_t first_batch = 0;         // numbering continues across configurations
    std::uint64_t end_batch = UINT64_MAX;  // send no index at or past this
    TimeNs deadline = INT64_MAX;           // send no index after this
};

class LoaderPipeline {
public:
    // With `numa` (may be null), each thread takes its place from the tracker's plan (bound to its
    // CPUs, or standing on a modelled CPU) and the copies are counted by node.
    LoaderPipeline(const LoaderConfig& config, Device& device, HostWork& host, PinnedPool& pool, Trace& trace,
                   PipelineGauges& gauges, NumaTracker* numa = nullptr);
    ~LoaderPipeline();
    LoaderPipeline(const LoaderPipeline&) = delete;
    LoaderPipeline& operator=(const LoaderPipeline&) = delete;

    // Runs on the calling thread (the consumer) until the limits are reached or `drain` is set,
    // then delivers every batch already sent and waits for the device. Returns the next batch index.
    // A stop abandons the batches in flight instead: every thread ends at once and each batch's
    // pinned block goes back to the pool (the device and the host work, which sleep on the same
    // stop, end their own work early). A failure anywhere ends the run: it requests the stop, and
    // is rethrown here.
    std::uint64_t run(const PipelineLimits& limits, const std::atomic<bool>& drain, std::stop_source stop);

private:
    struct OnDevice {
        std::uint64_t batch;
        OpId compute;
    };
    void start_threads();
    void stop_threads();
    void worker_main(std::uint16_t worker);
    void pin_thread_main();
    void fail(std::exception_ptr error);
    void interrupt();  // a stop or a failure: every thread ends at once, leaving its batches queued
    void discard(Batch& batch);  // an abandoned batch gives its pinned block back
    void discard_leftovers();    // once the threads have ended: what the queues and the reorder buffer hold
    void send(std::uint64_t index);
    std::optional<Batch> take_next();
    void consume(Batch batch);
    void collect_device_spans();
    void finish_device_work();

    const LoaderConfig config_;
    Device& device_;
    HostWork& host_;
    PinnedPool& pool_;
    Trace& trace_;
    PipelineGauges& gauges_;
    NumaTracker* numa_;
    std::shared_ptr<const NumaPlan> plan_;

    std::atomic<bool> stopping_{false};  // a stop or a failure: everyone stops at once
    std::stop_source stop_{std::nostopstate};  // the run's, during run()
    std::mutex error_mutex_;
    std::exception_ptr error_;

    struct IndexSent {
        std::uint64_t index;
        TimeNs sent_at;
    };
    std::vector<std::unique_ptr<BlockingQueue<IndexSent>>> index_queues_;
    BlockingQueue<Batch> results_;  // workers -> pin thread (or -> consumer without a pin thread)
    BlockingQueue<Batch> ready_;    // pin thread -> consumer
    std::vector<RunThread> threads_;

    LaneRecorder consumer_;
    LaneRecorder copy_lane_;
    LaneRecorder compute_lane_;
    std::uint64_t first_batch_ = 0;
    std::uint64_t sent_ = 0;
    std::uint64_t taken_ = 0;
    std::uint64_t next_in_order_ = 0;
    std::map<std::uint64_t, Batch> reorder_;
    std::vector<OnDevice> on_device_;
    std::vector<CompletedOp> completed_;
};

}  // namespace pinscope
