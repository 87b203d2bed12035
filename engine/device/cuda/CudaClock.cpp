// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaClock.h"

#include <algorithm>
#include <cmath>

#include "engine/clock/SteadyClock.h"
#include "engine/device/cuda/CudaCheck.h"

namespace pinscope {
namespace {

// Until the rate is known from a long baseline, an op is timed at most kReanchorEarly after its
// reference, so that the rate's error (tens of ppm between an H100's timer and the host's clock,
// measured) costs microseconds, not tens of them; then once a second, so float milliseconds stay exact.
constexpr TimeNs kReanchorEarly = 100'000'000;
constexpr TimeNs kReanchorEvery = 1'000'000'000;
constexpr TimeNs kRateBaselineAtLeast = 2'000'000'000;
constexpr int kBracketTries = 5;
// Clocks of the same machine disagree by parts per million; anything larger is a bad bracket. It
// is also what the rate can be off by before one has been measured.
constexpr double kMaxRateError = 5e-4;
// cudaEventElapsedTime's resolution is about half a microsecond, and a time takes two events.
constexpr TimeNs kEventResolution = 1000;

}  // namespace

ClockAnchor::~ClockAnchor() {
    if (event) (void)cudaEventDestroy(event);
}

CudaClock::CudaClock(int ordinal) : ordinal_(ordinal) {
    cuda_call("cudaStreamCreateWithFlags", ordinal_,
              [&] { return cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); });
    first_ = take_anchor();
    current_ = first_;
}

CudaClock::~CudaClock() {
    current_.reset();
    first_.reset();
    if (stream_) (void)cudaStreamDestroy(stream_);
}

std::shared_ptr<const ClockAnchor> CudaClock::take_anchor() {
    auto best = std::make_shared<ClockAnchor>();
    TimeNs best_width = 0;
    for (int attempt = 0; attempt < kBracketTries; ++attempt) {
        cudaEvent_t event = nullptr;
        cuda_call("cudaEventCreate", ordinal_, [&] { return cudaEventCreate(&event); });
        const TimeNs before = now_ns();
        cudaError_t error = cudaEventRecord(event, stream_);
        if (error == cudaSuccess) error = cudaEventSynchronize(event);
        const TimeNs after = now_ns();
        if (error != cudaSuccess) {
            (void)cudaEventDestroy(event);
            throw_cuda_error("cudaEventRecord/cudaEventSynchronize (clock reference)", ordinal_, error);
        }
        if (!best->event || after - before < best_width) {
            if (best->event) (void)cudaEventDestroy(best->event);
            best->event = event;
            best->host_ns = before + (after - before) / 2;
            best->half_width_ns = (after - before + 1) / 2;
            best_width = after - before;
        } else {
            (void)cudaEventDestroy(event);
        }
    }
    best->rate_error = kMaxRateError;
    if (first_ && best->host_ns - first_->host_ns >= kReanchorEarly) {
        float ms = 0;
        cuda_call("cudaEventElapsedTime", ordinal_, [&] { return cudaEventElapsedTime(&ms, first_->event, best->event); });
        const double gpu_ns = static_cast<double>(ms) * 1e6;
        const double baseline = static_cast<double>(best->host_ns - first_->host_ns);
        const double rate = baseline / gpu_ns;
        best->rate = std::clamp(rate, 1.0 - kMaxRateError, 1.0 + kMaxRateError);
        best->rate_error = std::min(kMaxRateError, static_cast<double>(first_->half_width_ns + best->half_width_ns +
                                                                       kEventResolution) / baseline +
                                                       std::abs(rate - best->rate));
    }
    best->period_ns = first_ && best->host_ns - first_->host_ns >= kRateBaselineAtLeast ? kReanchorEvery : kReanchorEarly;
    widest_half_width_ns_ = std::max(widest_half_width_ns_, best->half_width_ns);
    return best;
}

std::shared_ptr<const ClockAnchor> CudaClock::anchor() {
    if (now_ns() - current_->host_ns >= current_->period_ns) current_ = take_anchor();
    return current_;
}

TimeNs CudaClock::to_host(const ClockAnchor& anchor, cudaEvent_t event) const {
    float ms = 0;
    cuda_call("cudaEventElapsedTime", ordinal_, [&] { return cudaEventElapsedTime(&ms, anchor.event, event); });
    return anchor.host_ns + static_cast<TimeNs>(std::llround(static_cast<double>(ms) * 1e6 * anchor.rate));
}

TimeNs CudaClock::uncertainty_ns() const {
    const double rate_drift = current_->rate_error * static_cast<double>(current_->period_ns);
    return widest_half_width_ns_ + static_cast<TimeNs>(std::ceil(rate_drift)) + kEventResolution;
}

}  // namespace pinscope
