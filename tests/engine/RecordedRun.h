// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a configuration to its end on the emulated device and returns everything it recorded.
#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/runner/Runner.h"

namespace pinscope::test {

// Keeps everything a run records in memory, for tests to look at (also while it runs: the
// observer thread records, the test's thread takes a copy).
class MemoryRecorder : public RunRecorder {
public:
    void begin(const RunStart& start) override {
        std::lock_guard lock(mutex_);
        record_.origin = start.origin;
        start_ = start;
    }
    void record(const TraceDelta& delta) override {
        std::lock_guard lock(mutex_);
        record_.spans.insert(record_.spans.end(), delta.spans.begin(), delta.spans.end());
        record_.counters.insert(record_.counters.end(), delta.counters.begin(), delta.counters.end());
        record_.markers.insert(record_.markers.end(), delta.markers.begin(), delta.markers.end());
    }
    void record(const NumaSample& sample) override {
        std::lock_guard lock(mutex_);
        record_.numa_samples.push_back(sample);
    }
    void finish(const RunSummary& summary) override {
        std::lock_guard lock(mutex_);
        record_.summary = summary;
    }
    // What was recorded so far.
    RunRecord snapshot() const {
        std::lock_guard lock(mutex_);
        return record_;
    }
    // What begin() was given.
    RunStart start() const {
        std::lock_guard lock(mutex_);
        return start_;
    }
    // What was recorded so far, with the runner's summary now (which takes in the newest spans).
    RunRecord taken(const Runner& runner) {
        finish(runner.summary());
        return snapshot();
    }

private:
    mutable std::mutex mutex_;
    RunRecord record_;
    RunStart start_;
};

// Options whose recorder is `recorder` (made here).
inline RunnerOptions recording_into(std::shared_ptr<MemoryRecorder>& recorder, RunnerOptions options = {}) {
    recorder = std::make_shared<MemoryRecorder>();
    options.recorder = recorder;
    return options;
}

inline RunRecord run_to_end(const LoaderConfig& config, RunnerOptions options = {}) {
    std::shared_ptr<MemoryRecorder> recorder;
    Runner runner(recording_into(recorder, std::move(options)));
    runner.start(config);
    runner.wait();
    runner.stop();
    return recorder->taken(runner);
}

// A small, quick configuration: 4 x 3x32x32 f32 batches (48 KiB) with the host modelled.
inline LoaderConfig small_config(std::uint32_t workers, bool pin_memory, std::uint64_t batches = 60) {
    LoaderConfig config;
    config.device = "emulated";  // the figures these tests expect are the emulated device's
    config.batch_size = 4;
    config.sample_shape = {3, 32, 32};
    config.num_workers = workers;
    config.pin_memory = pin_memory;
    config.cpu_us_per_sample = 50;
    config.gpu_us_per_batch = 200;
    config.batches = batches;
    config.seconds.reset();
    return config;
}

inline std::vector<std::uint64_t> batches_of(const RunRecord& record, Stage stage) {
    std::vector<std::uint64_t> out;
    for (const Span& span : record.spans)
        if (span.stage == stage) out.push_back(span.batch);
    return out;
}

// Bytes this process has locked (VmLck in /proc/self/status).
inline std::uint64_t locked_bytes() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmLck:") {
            std::uint64_t kib = 0;
            status >> kib;
            return kib * 1024;
        }
        std::getline(status, key);
    }
    return 0;
}

}  // namespace pinscope::test
