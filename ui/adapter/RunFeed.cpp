// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/adapter/RunFeed.h"

#include <QMetaObject>

#include <chrono>

namespace pinscope::ui {

RunFeed::RunFeed(FeedOptions options, QObject* parent)
    : QObject(parent),
      options_(options),
      runner_([this] {
          RunnerOptions runner_options;
          runner_options.frames = true;
          runner_options.recorder = recorder_;
          // Called on engine threads: hand the text to the GUI thread and return at once.
          runner_options.messages = [this](Severity severity, const std::string& text) {
              QMetaObject::invokeMethod(
                  this, [this, severity, message = QString::fromStdString(text)] { emit engineMessage(severity, message); },
                  Qt::QueuedConnection);
          };
          return runner_options;
      }()) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(1000 / std::max(1, options_.poll_hz));
    connect(&timer_, &QTimer::timeout, this, &RunFeed::poll);
}

RunFeed::~RunFeed() {
    // No engine thread may call back into this object once it is gone.
    runner_.stop();
}

void RunFeed::start(const LoaderConfig& config) {
    if (running()) stop();
    runner_.start(config);  // throws before anything shown changes
    begin(runner_.source(), true);
}

void RunFeed::show(std::shared_ptr<RunSource> source) {
    if (running()) stop();
    begin(std::move(source), false);
}

void RunFeed::begin(std::shared_ptr<RunSource> source, bool live) {
    source_ = std::move(source);
    live_ = live;
    ended_ = false;
    timer_.start();
    emit started();
    poll();
}

void RunFeed::reconfigure(const LoaderConfig& config) { runner_.reconfigure(config); }

void RunFeed::stop() {
    if (!live_ || ended_) return;
    runner_.stop();  // joins the observer, whose last frame is marked ended
    poll();
    if (ended_) return;
    ended_ = true;  // not reached while the engine keeps its promise; the window must not hang on it
    timer_.stop();
    emit ended();
}

void RunFeed::finish_recording() {
    try {
        recorder_->finish(last_->summary);
    } catch (const std::exception& e) {
        emit engineMessage(Severity::Error, QString::fromStdString(e.what()));
    }
}

void RunFeed::poll() {
    // The live engine gives what is new since the last poll as one frame; a recorded run gives
    // its frames as fast as they are asked for, so take them for a share of the poll period.
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplayMsPerPoll);
    do {
        if (ended_ || !source_) return;
        std::shared_ptr<const RunFrame> next = source_->next_frame();
        if (!next) return;
        last_ = std::move(next);
        ended_ = last_->ended;
        if (ended_) timer_.stop();
        if (ended_ && live_) finish_recording();
        emit frame(*last_);
        if (ended_) emit ended();
    } while (!live_ && std::chrono::steady_clock::now() < until);
}

}  // namespace pinscope::ui
