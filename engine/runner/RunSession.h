// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run from start to stop: the engine thread that drives the pipeline through configurations,
// and the observer thread that samples counters, keeps the metrics and feeds the recorder.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

#include "engine/analysis/SegmentTracker.h"
#include "engine/analysis/UsageTracker.h"
#include "engine/analysis/MemoryPressure.h"
#include "engine/clock/ModelLag.h"
#include "engine/clock/RunClock.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/files/MachineFiles.h"
#include "engine/metrics/MetricsTracker.h"
#include "engine/numa/NumaTracker.h"
#include "engine/pipeline/PipelineGauges.h"
#include "engine/runner/LiveRunSource.h"
#include "engine/runner/Runner.h"

namespace pinscope {

// The device a run uses: RunnerOptions::make_device's when it is set (tests), else config.device's.
// Throws DeviceError or ConfigError.
OpenedDevice open_run_device(const LoaderConfig& config, const RunnerOptions& options);

class RunSession {
public:
    // `topology`: the run's, checked against the configuration (find_numa_issues) by the caller.
    RunSession(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology, OpenedDevice device,
               const RunnerOptions& options, std::atomic<bool>& running);
    ~RunSession();

    void request_reconfigure(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology);
    void stop();   // abandon the batches in flight, end the device's work, join both threads
    void wait();   // until the engine thread has ended

    std::shared_ptr<const Trace> trace() const { return trace_; }
    TimeNs origin() const { return origin_; }
    LoaderConfig config() const;
    DeviceInfo device_info() const;
    std::shared_ptr<const MachineTopology> topology() const;
    NumaUsage numa_usage() const { return numa_.usage(); }
    // As the observer last saw them: final once wait() or stop() has returned.
    RunSummary summary() const;
    Metrics window_metrics() const;
    Bottleneck window_bottleneck() const;
    // The run's frames, built by the observer; null unless RunnerOptions::frames.
    std::shared_ptr<LiveRunSource> source() const { return source_; }

private:
    void engine_main();
    void run_segments();
    void observer_main();
    void observe(TimeNs now, bool ended);  // what take_new() took, at `now`
    void take_new();                       // what is new in the trace
    RunSummary make_summary(TimeNs now) const;
    void sample_counters(TimeNs now);
    // The machine's memory into the counters and memory_, warning when pinning would hurt.
    void sample_memory(TimeNs now);
    void stop_at_deadline(TimeNs now);  // the run's length ends it as a stop does
    void message(Severity severity, const std::string& text);
    std::uint64_t budget_of(const LoaderConfig& config) const;
    PoolCounts pool_counts() const;  // under pool_mutex_
    void take_segment_starts();
    void apply_numa_plan(const LoaderConfig& config);
    void make_pool(const LoaderConfig& config);
    void join_run(Device& device);
    void keep_time_for(const LoaderConfig& config);  // modelled time or the steady clock, and the run's length

    RunnerOptions options_;
    std::atomic<bool>& running_;
    std::shared_ptr<Trace> trace_;
    OpenedDevice device_;
    DeviceInfo device_info_;
    TimeNs origin_;
    std::shared_ptr<RunClock> clock_;  // the engine's and the observer's, and the pipeline threads'
    PipelineGauges gauges_;

    mutable std::mutex config_mutex_;
    LoaderConfig config_;                       // in force
    std::shared_ptr<const MachineTopology> topology_;  // in force
    std::optional<LoaderConfig> pending_;       // asked for, applied at the next drain
    // Segments the engine thread began that the observer has not taken yet.
    struct SegmentStart {
        TimeNs time;
        LoaderConfig config;
        PoolCounts ended_with, begins_with;
    };
    std::vector<SegmentStart> segment_starts_;
    std::shared_ptr<const MachineTopology> pending_topology_;
    std::shared_ptr<const NumaPlan> plan_;      // the engine thread's only

    NumaTracker numa_{nullptr};                 // outlives the pool, which reports to it
    std::atomic<bool> drain_{false};
    // Every modelled wait of the run sleeps on its token; a stop or the run's length requests it.
    std::stop_source stop_;
    std::stop_callback<std::function<void()>> release_clock_;  // a stop releases the modelled threads
    std::atomic<std::uint32_t> reconfigurations_{0};

    mutable std::mutex pool_mutex_;
    std::unique_ptr<PinnedPool> pool_;
    PoolStats last_pool_stats_;

    mutable std::mutex state_mutex_;            // what the engine thread reports and the observer last saw
    std::condition_variable ended_;
    bool engine_done_ = false;
    bool observed_end_ = false;                 // the observer has taken in everything the run did
    TimeNs end_time_ = 0;
    RunSummary summary_;
    Metrics window_;
    Bottleneck window_bottleneck_;
    std::vector<std::string> warnings_;
    const std::shared_ptr<ModelLag> model_lag_ = std::make_shared<ModelLag>();
    std::string error_;
    std::deque<std::pair<TimeNs, std::uint64_t>> h2d_history_;
    const std::uint64_t memlock_limit_;
    const bool memlock_exempt_;

    // The observer thread's own.
    TraceReader reader_;
    TraceDelta delta_;
    MetricsTracker metrics_;
    UsageTracker usage_;
    SegmentTracker segments_;
    double window_s_;
    // The window's bottleneck scans every span of the last window: worked out every
    // kWindowBottleneckPeriod (and at the end) rather than every observer period.
    static constexpr TimeNs kWindowBottleneckPeriod = 100'000'000;
    Bottleneck window_bottleneck_seen_;
    TimeNs window_bottleneck_at_ = 0;
    std::shared_ptr<LiveRunSource> source_;
    // The machine's memory (analysis/MemoryPressure), read every kMemoryPeriod: /proc/meminfo is
    // cheap to read, but not a hundred times a second for a figure that moves slowly.
    static constexpr TimeNs kMemoryPeriod = 100'000'000;
    MachineFiles machine_;
    MemoryState memory_at_start_;
    MemoryPressure memory_;
    TimeNs memory_at_ = 0;
    std::optional<std::uint32_t> would_swap_warned_in_;  // the segment (reconfigurations so far) it was said in
    bool swapped_warned_ = false;

    std::thread engine_;
    std::thread observer_;
};

}  // namespace pinscope
