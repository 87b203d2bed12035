// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one object that talks to the engine. It owns the Runner, and on a timer (30 Hz) takes what
// is new in the trace through its own TraceReader: the engine never waits for the UI, and a slow
// UI only lets spans pile up in the engine's ring. What it took goes into bounded stores that the
// views read, and out as signals. GUI thread only.
#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "engine/runner/RunRecord.h"
#include "engine/runner/Runner.h"
#include "ui/model/SpanStore.h"

namespace pinscope::ui {

struct FeedOptions {
    std::size_t span_capacity = SpanStore::kDefaultCapacity;
    std::size_t counter_capacity = 1'000'000;  // samples of all counters together
    int poll_hz = 30;
    double summary_period_s = 0.25;
};

class EngineFeed : public QObject {
    Q_OBJECT

public:
    explicit EngineFeed(FeedOptions options = {}, QObject* parent = nullptr);
    ~EngineFeed() override;

    // Clears the stores and starts a run; throws ConfigError or DeviceError as Runner::start does.
    void start(const LoaderConfig& config);
    // Throws ConfigError; the engine applies it at its next drain and leaves a marker.
    void reconfigure(const LoaderConfig& config);
    // Drains and joins the engine, then takes the last spans.
    void stop();
    bool running() const { return active_; }
    bool has_run() const { return trace_ != nullptr; }

    const SpanStore& spans() const { return spans_; }
    const std::deque<CounterSample>& counters() const { return counters_; }
    const std::vector<Marker>& markers() const { return markers_; }
    TimeNs origin() const { return origin_; }
    double seconds_since_origin(TimeNs time) const { return static_cast<double>(time - origin_) * 1e-9; }
    // Now, in seconds since the run's start: the engine's clock while running, the end once ended.
    double now_s() const;
    const Metrics& window_metrics() const { return window_; }
    const RunSummary& summary() const { return summary_; }
    DeviceInfo device_info() const { return runner_.device_info(); }
    // The run's topology (null before a run) and its NUMA usage at the last poll, for the NUMA view.
    std::shared_ptr<const MachineTopology> topology() const { return runner_.topology(); }
    const NumaUsage& numa_usage() const { return numa_usage_; }
    LoaderConfig engine_config() const { return runner_.config(); }
    // The run as the exporters take it: the summary so far and what the stores hold.
    RunRecord record() const;
    std::uint64_t polls() const { return polls_; }

public slots:
    void poll();

signals:
    void started();
    // New spans, counter samples and markers, after the stores have taken them.
    void polled(const pinscope::TraceDelta& delta);
    void metricsSampled(double time_s, const pinscope::Metrics& window);
    void summaryUpdated(const pinscope::RunSummary& summary);
    void ended();
    void engineMessage(pinscope::Severity severity, const QString& text);

private:
    void take_new();
    void finish();

    FeedOptions options_;
    Runner runner_;
    QTimer timer_;
    std::shared_ptr<const Trace> trace_;
    std::optional<TraceReader> reader_;
    TraceDelta delta_;
    SpanStore spans_;
    std::deque<CounterSample> counters_;
    NumaUsage numa_usage_;
    std::deque<NumaSample> numa_samples_;
    std::vector<Marker> markers_;
    TimeNs origin_ = 0;
    bool active_ = false;
    Metrics window_;
    RunSummary summary_;
    TimeNs last_summary_ = 0;
    std::uint64_t polls_ = 0;
};

}  // namespace pinscope::ui
