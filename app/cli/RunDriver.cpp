// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RunDriver.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace pinscope::cli {

namespace {

constexpr auto kPollPeriod = std::chrono::milliseconds(50);

void print_engine_message(Severity severity, const std::string& text) {
    const char* kind = severity == Severity::Error ? "error: " : severity == Severity::Warning ? "warning: " : "";
    // One write per line, so that lines from engine threads do not interleave.
    const std::string line = std::string("pinscope: ") + kind + text + "\n";
    std::fputs(line.c_str(), stderr);
}

RunnerOptions options_for(std::shared_ptr<RunRecorder> recorder, const Measurement& measurement,
                          std::shared_ptr<std::atomic<bool>> reported_error) {
    RunnerOptions options;
    options.recorder = std::move(recorder);
    options.window_s = measurement.window_s;
    options.trace_all_spans = measurement.trace_all_spans;
    options.pace = measurement.pace;
    options.messages = [reported_error](Severity severity, const std::string& text) {
        if (severity == Severity::Error) reported_error->store(true);
        print_engine_message(severity, text);
    };
    return options;
}

}  // namespace

RunDriver::RunDriver(std::shared_ptr<RunRecorder> recorder, Measurement measurement)
    : reported_error_(std::make_shared<std::atomic<bool>>(false)),
      runner_(options_for(std::move(recorder), measurement, reported_error_)) {}

RunDriver::~RunDriver() { runner_.stop(); }

bool RunDriver::interrupted() { return app::InterruptSignals::raised(); }

bool RunDriver::run(const LoaderConfig& config, const std::vector<TimedChange>& changes) {
    runner_.start(config);
    const auto started = std::chrono::steady_clock::now();
    std::size_t next = 0;
    // The Runner has no timed wait: poll, so that an interrupt is seen within a period.
    while (runner_.running() && !interrupted()) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
        for (; next < changes.size() && changes[next].at_s <= elapsed.count(); ++next) runner_.reconfigure(changes[next].config);
        std::this_thread::sleep_for(kPollPeriod);
    }
    const bool stopped_early = runner_.running();
    // Also joins the observer, whose last pass puts the final spans into the summary and recorder.
    runner_.stop();
    return stopped_early;
}

}  // namespace pinscope::cli
