// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs engine/advice's predictions (short emulated runs, seconds each) off the GUI thread, one
// request at a time: a new request cancels the one under way (its runs stop at once) and only the
// newest request's result is reported; requests that arrive while one is cancelling are coalesced.
#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/advice/Advisor.h"
#include "engine/runner/RunRecord.h"

namespace pinscope::ui {

struct Prediction {
    std::uint64_t request = 0;
    std::string device;          // the emulated device that predicted: "emulated:h200-pcie5"
    std::vector<Advice> advice;  // best first; empty when no change is predicted to gain enough
    std::string error;           // the baseline could not run
};

class AdvicePredictor : public QObject {
    Q_OBJECT

public:
    // What predicts; advise() unless a test gives its own (called on the predictor's thread).
    using Predict = std::function<std::vector<Advice>(const RunSummary&, const AdviceOptions&)>;

    explicit AdvicePredictor(Predict predict = {}, QObject* parent = nullptr);
    ~AdvicePredictor() override;  // cancels and waits for the thread (a prediction stops within 10 ms)

    // Predicts for `basis` (its configuration, device and bottleneck); returns the request's number.
    std::uint64_t request(RunSummary basis);
    // Drops the request under way and any waiting.
    void cancel();
    // A request is under way or waiting.
    bool busy() const { return thread_.joinable() || pending_.has_value(); }
    // The newest request's result, once predicted() has been emitted.
    const Prediction& result() const { return result_; }

signals:
    void predicted();
    // Nothing runs any more (after predicted(), or after a cancelled request ended).
    void idle();

private:
    struct Job {
        std::uint64_t request;
        RunSummary basis;
    };
    void start_next();
    void finished(Prediction prediction);

    Predict predict_;
    std::atomic<std::uint64_t> latest_{0};  // the request that counts; the thread's job is cancelled when it moves on
    std::atomic<bool> closing_{false};
    std::optional<Job> pending_;
    std::thread thread_;
    Prediction result_;
};

}  // namespace pinscope::ui
