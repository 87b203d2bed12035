// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Owns the engine thread: start a run, reconfigure it while it runs, stop it. Everything the
// pipeline does goes into the Trace, which any number of readers poll without blocking it.
#include <atomic>
#include <functional>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "engine/clock/RunClock.h"
#include "engine/config/LoaderConfig.h"
#include "engine/numa/NumaUsage.h"
#include "engine/runner/RunRecord.h"
#include "engine/runner/RunRecorder.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/MessageSink.h"
#include "engine/trace/Trace.h"

namespace pinscope {

class Device;
class RunSession;
class RunSource;

struct RunnerOptions {
    MessageSink messages;                  // warnings and errors, from any engine thread
    // Fed every span, counter, marker and NUMA sample as the run goes (exports, recordings).
    std::shared_ptr<RunRecorder> recorder;
    std::size_t span_capacity = Trace::kDefaultSpanCapacity;
    bool trace_all_spans = true;           // false: compute spans only and untimed copies (to measure tracing's cost)
    double window_s = 1.0;                 // sliding window of window_metrics()
    // Build the run's frames for a reader (the window): Runner::source(). Off, nothing is kept.
    bool frames = false;
    // Makes the device; the default picks it from config.device. Tests inject failing devices here.
    std::function<std::unique_ptr<Device>(const LoaderConfig&)> make_device;
    // Where /proc/meminfo is read for the memory counters and the swap warning; tests point it at
    // a folder holding their own proc/meminfo.
    std::string machine_root = "/";
    // With the emulated device and the modelled host the run keeps modelled time
    // (engine/clock/RunClock.h): WallClock follows the wall clock, as a live view needs; Unpaced
    // runs as fast as this machine can, to the same figures (checks, predictions).
    RunClock::Pace pace = RunClock::Pace::WallClock;
};

class Runner {
public:
    explicit Runner(RunnerOptions options = {});
    ~Runner();  // stops
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // Validates the configuration (throws ConfigError) and opens the device (throws DeviceError),
    // then starts the engine thread. The run ends by itself when its length is reached.
    void start(const LoaderConfig& config);
    // Validates (throws ConfigError) and hands the new configuration to the engine thread, which
    // drains the pipeline (every batch already sent is delivered), leaves a marker in the trace and
    // goes on with the new configuration. Batch numbering continues.
    void reconfigure(const LoaderConfig& config);
    // Ends the run at once: the batches in flight are abandoned (reconfigure drains them, stop
    // does not), modelled waits and the GPU's kernel end early, and every pinned block is freed
    // when it returns. A run also stops this way when its length in seconds is reached.
    void stop();
    // Waits until the run has ended by its length, by stop() or by an error, and the observer has
    // taken in all it did.
    void wait();

    bool running() const { return running_.load(); }
    // The trace of the current (or last) run; a new run gets a new trace.
    std::shared_ptr<const Trace> trace() const;
    // Time zero of the current (or last) run on the steady clock: where exports and views start.
    TimeNs origin() const;
    LoaderConfig config() const;
    DeviceInfo device_info() const;
    // The current (or last) run's topology: this machine, or the loaded XML; null before a run.
    std::shared_ptr<const MachineTopology> topology() const;
    // Pinned bytes by node and cross-node traffic so far; cheap and thread-safe (the UI polls it).
    NumaUsage numa_usage() const;
    // Whole-run summary and the sliding window as the observer thread last saw them (every 10 ms);
    // final once stop() or wait() has returned.
    RunSummary summary() const;
    Metrics window_metrics() const;
    // What bounded throughput over the sliding window, as the observer last saw it.
    Bottleneck window_bottleneck() const;
    // The current (or last) run's frames, one per call of next_frame(); null before a run or
    // without RunnerOptions::frames.
    std::shared_ptr<RunSource> source() const;

private:
    RunnerOptions options_;
    std::shared_ptr<RunSession> session_;
    std::atomic<bool> running_{false};
};

}  // namespace pinscope
