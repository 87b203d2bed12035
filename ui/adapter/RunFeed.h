// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the window reads: one frame per poll (30 Hz) from a run source. The live engine is one
// source, which this object also starts, reconfigures and stops; a fixed list of frames (tests)
// or a recorded run is another, shown the same way. It keeps nothing of the run but its last
// frame: each view keeps what it needs from the frames. GUI thread only.
#include <QObject>
#include <QTimer>

#include <memory>

#include "engine/runner/RunSource.h"
#include "engine/runner/Runner.h"

namespace pinscope::ui {

struct FeedOptions {
    std::size_t span_capacity = 2'000'000;     // spans the timeline and the exports keep, each
    std::size_t counter_capacity = 1'000'000;  // samples of all counters together, for the exports
    int poll_hz = 30;
};

class RunFeed : public QObject {
    Q_OBJECT

public:
    static constexpr int kReplayMsPerPoll = 20;  // of each poll's 33 ms, taking a recorded run's frames

    explicit RunFeed(FeedOptions options = {}, QObject* parent = nullptr);
    ~RunFeed() override;

    // Starts the live engine and shows it; throws ConfigError or DeviceError as Runner::start does,
    // leaving what was shown before.
    void start(const LoaderConfig& config);
    // Throws ConfigError; the engine applies it at its next drain and leaves a marker.
    void reconfigure(const LoaderConfig& config);
    // Stops the live engine, then shows its last frames.
    void stop();
    // Shows a source other than the live engine (stopping the engine first), from its first frame.
    void show(std::shared_ptr<RunSource> source);
    // The live engine runs: reconfigure applies to it.
    bool running() const { return live_ && !ended_; }
    // The run shown is the live engine's (running or ended), not a recorded or fixed source.
    bool live() const { return live_; }
    bool has_run() const { return last_ != nullptr; }
    // The newest frame shown; null before the first.
    const std::shared_ptr<const RunFrame>& last_frame() const { return last_; }
    const FeedOptions& options() const { return options_; }
    // Where the next live runs are recorded (null: nowhere); a run going on keeps its own, and its
    // summary goes into it as it ends, before ended().
    void set_recorder(std::shared_ptr<RunRecorder> recorder) { recorder_->set(std::move(recorder)); }

public slots:
    // Takes the source's next frame, if any, and hands it to the views.
    void poll();

signals:
    void started();
    void frame(const pinscope::RunFrame& frame);
    void ended();
    void engineMessage(pinscope::Severity severity, const QString& text);

private:
    void begin(std::shared_ptr<RunSource> source, bool live);
    // A live run's end: its summary into the recording it went to, if any.
    void finish_recording();

    FeedOptions options_;
    std::shared_ptr<RunRecorderSlot> recorder_ = std::make_shared<RunRecorderSlot>();
    Runner runner_;
    QTimer timer_;
    std::shared_ptr<RunSource> source_;
    std::shared_ptr<const RunFrame> last_;
    bool live_ = false;
    bool ended_ = true;
};

}  // namespace pinscope::ui
