// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs the engine's bandwidth sweep on its own thread, so that the window stays responsive: each
// measured point comes back to the GUI thread as a signal, and cancel() stops the sweep after the
// point being measured.
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <thread>

#include "engine/bandwidth/BandwidthSweep.h"

namespace pinscope::ui {

// run_bandwidth_sweep's signature; tests hand in sweeps of a known pace.
using BandwidthSweepFunction = std::function<BandwidthResult(
    const BandwidthOptions&, const std::function<bool(double, const BandwidthPoint&)>&)>;

class BandwidthSweepRunner : public QObject {
    Q_OBJECT

public:
    explicit BandwidthSweepRunner(BandwidthSweepFunction sweep = run_bandwidth_sweep, QObject* parent = nullptr);
    ~BandwidthSweepRunner() override;  // cancels and joins

    // False when a sweep is already running.
    bool start(const BandwidthOptions& options);
    void cancel();
    bool running() const { return running_; }

signals:
    void pointMeasured(double fraction, const pinscope::BandwidthPoint& point);
    // The sweep ended, whole or cancelled; `cancelled` says which.
    void finished(const pinscope::BandwidthResult& result, bool cancelled);
    void failed(const QString& message);

private:
    void join();

    BandwidthSweepFunction sweep_;
    std::thread thread_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};

}  // namespace pinscope::ui
