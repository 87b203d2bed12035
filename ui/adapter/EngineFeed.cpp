// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/adapter/EngineFeed.h"

#include <QMetaObject>

#include "engine/clock/SteadyClock.h"

namespace pinscope::ui {

EngineFeed::EngineFeed(FeedOptions options, QObject* parent)
    : QObject(parent),
      options_(options),
      runner_([this] {
          RunnerOptions runner_options;
          // Called on engine threads: hand the text to the GUI thread and return at once.
          runner_options.messages = [this](Severity severity, const std::string& text) {
              QMetaObject::invokeMethod(
                  this, [this, severity, message = QString::fromStdString(text)] { emit engineMessage(severity, message); },
                  Qt::QueuedConnection);
          };
          return runner_options;
      }()),
      spans_(options.span_capacity) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(1000 / std::max(1, options_.poll_hz));
    connect(&timer_, &QTimer::timeout, this, &EngineFeed::poll);
}

EngineFeed::~EngineFeed() {
    // No engine thread may call back into this object once it is gone.
    runner_.stop();
}

void EngineFeed::start(const LoaderConfig& config) {
    if (active_) stop();
    runner_.start(config);  // throws before anything below changes
    trace_ = runner_.trace();
    reader_.emplace(*trace_);
    origin_ = runner_.origin();
    spans_.clear();
    counters_.clear();
    numa_usage_ = {};
    numa_samples_.clear();
    markers_.clear();
    window_ = {};
    summary_ = {};
    last_summary_ = 0;
    active_ = true;
    timer_.start();
    emit started();
}

void EngineFeed::reconfigure(const LoaderConfig& config) { runner_.reconfigure(config); }

void EngineFeed::stop() {
    if (!active_) return;
    runner_.stop();
    finish();
}

double EngineFeed::now_s() const {
    if (!trace_) return 0;
    return active_ ? seconds_since_origin(now_ns()) : seconds_since_origin(summary_.metrics.end);
}

void EngineFeed::poll() {
    if (!active_) return;
    take_new();
    const TimeNs now = now_ns();
    window_ = runner_.window_metrics();
    emit metricsSampled(seconds_since_origin(now), window_);
    if (now - last_summary_ >= static_cast<TimeNs>(options_.summary_period_s * 1e9)) {
        summary_ = runner_.summary();
        last_summary_ = now;
        emit summaryUpdated(summary_);
    }
    if (!runner_.running()) {
        runner_.stop();  // joins the observer, so that the summary is final
        finish();
    }
}

void EngineFeed::take_new() {
    ++polls_;
    delta_.clear();
    reader_->poll(delta_);
    spans_.add(delta_.spans);
    counters_.insert(counters_.end(), delta_.counters.begin(), delta_.counters.end());
    if (counters_.size() > options_.counter_capacity)
        counters_.erase(counters_.begin(),
                        counters_.begin() + static_cast<std::ptrdiff_t>(counters_.size() - options_.counter_capacity));
    markers_.insert(markers_.end(), delta_.markers.begin(), delta_.markers.end());
    // Pinned bytes by node and cross-node traffic, one sample per poll, for the CSV export.
    numa_usage_ = runner_.numa_usage();
    numa_samples_.push_back(
        {now_ns(), numa_usage_.nodes, numa_usage_.cross_node_h2d_bytes, numa_usage_.cross_node_host_copy_bytes});
    if (numa_samples_.size() > options_.counter_capacity) numa_samples_.pop_front();
    emit polled(delta_);
}

void EngineFeed::finish() {
    timer_.stop();
    take_new();
    active_ = false;
    summary_ = runner_.summary();
    window_ = runner_.window_metrics();
    emit metricsSampled(seconds_since_origin(summary_.metrics.end), window_);
    emit summaryUpdated(summary_);
    emit ended();
}

RunRecord EngineFeed::record() const {
    RunRecord record;
    record.summary = active_ ? runner_.summary() : summary_;
    record.origin = origin_;
    record.spans = spans_.all_spans();
    record.counters.assign(counters_.begin(), counters_.end());
    record.markers = markers_;
    record.numa_samples.assign(numa_samples_.begin(), numa_samples_.end());
    return record;
}

}  // namespace pinscope::ui
