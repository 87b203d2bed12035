// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a run's data goes as it runs: the observer thread hands each recorder what it drains from
// the trace (every span, counter sample and marker, in the order drained) and each NUMA sample,
// so that nothing need be kept in memory for exports or recordings. The exporters
// (RunFileExports) are one; a recording database (record/RecordingWriter) another.
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/runner/RunRecord.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/Trace.h"

namespace pinscope {

// What is known of a run as it begins: time zero, and what it starts on.
struct RunStart {
    TimeNs origin = 0;
    RunSummary summary{};  // nothing run yet: configuration, device, host, memlock, NUMA source
    std::shared_ptr<const MachineTopology> topology{};  // null on a run without one
};

class RunRecorder {
public:
    virtual ~RunRecorder() = default;
    // Before anything else, on the thread that starts the run. A recorder may see several runs,
    // one after the other (a sweep): begin, records, finish, then begin again.
    virtual void begin(const RunStart& start) = 0;
    // From the run's observer thread only. Calls after finish() are to be ignored.
    virtual void record(const TraceDelta& delta) = 0;
    virtual void record(const NumaSample& sample) = 0;
    // From the observer thread, when a reconfiguration starts the run's next segment (the first
    // comes with begin(), in RunStart::summary.segments): its index, begin, configuration and
    // change. Its figures come with finish()'s summary.
    virtual void begin_segment(const RunSegment& /*segment*/) {}
    // By the recorder's owner once the run has ended (Runner::stop returned), with its summary.
    // Throws std::runtime_error when what was recorded cannot be kept.
    virtual void finish(const RunSummary& summary) = 0;
};

// Several recorders fed as one (exports and a recording of the same run), in the order given.
class RunRecorders : public RunRecorder {
public:
    explicit RunRecorders(std::vector<std::shared_ptr<RunRecorder>> recorders) : recorders_(std::move(recorders)) {}
    void begin(const RunStart& start) override {
        for (const auto& recorder : recorders_) recorder->begin(start);
    }
    void record(const TraceDelta& delta) override {
        for (const auto& recorder : recorders_) recorder->record(delta);
    }
    void record(const NumaSample& sample) override {
        for (const auto& recorder : recorders_) recorder->record(sample);
    }
    void begin_segment(const RunSegment& segment) override {
        for (const auto& recorder : recorders_) recorder->begin_segment(segment);
    }
    // Finishes every one; the first failure is thrown once all have been tried.
    void finish(const RunSummary& summary) override {
        std::exception_ptr failure;
        for (const auto& recorder : recorders_) {
            try {
                recorder->finish(summary);
            } catch (...) {
                if (!failure) failure = std::current_exception();
            }
        }
        if (failure) std::rethrow_exception(failure);
    }

private:
    std::vector<std::shared_ptr<RunRecorder>> recorders_;
};

// A recorder chosen between runs (the window's recording switch): each run goes to the target
// set when it began, until its finish, whatever is set meanwhile. Without a target, nothing.
class RunRecorderSlot : public RunRecorder {
public:
    void set(std::shared_ptr<RunRecorder> target) {
        std::lock_guard lock(mutex_);
        target_ = std::move(target);
    }
    void begin(const RunStart& start) override {
        std::lock_guard lock(mutex_);
        active_ = target_;
        if (active_) active_->begin(start);
    }
    void record(const TraceDelta& delta) override {
        std::lock_guard lock(mutex_);
        if (active_) active_->record(delta);
    }
    void record(const NumaSample& sample) override {
        std::lock_guard lock(mutex_);
        if (active_) active_->record(sample);
    }
    void begin_segment(const RunSegment& segment) override {
        std::lock_guard lock(mutex_);
        if (active_) active_->begin_segment(segment);
    }
    void finish(const RunSummary& summary) override {
        std::shared_ptr<RunRecorder> active;
        {
            std::lock_guard lock(mutex_);
            active.swap(active_);
        }
        if (active) active->finish(summary);
    }

private:
    std::mutex mutex_;
    std::shared_ptr<RunRecorder> target_;
    std::shared_ptr<RunRecorder> active_;  // the run's, from begin to finish
};

}  // namespace pinscope
