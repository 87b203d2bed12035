#include "device/cuda/CudaClock.h"

#include <algorithm>
#include <cmath>

#include "clock/SteadyClock.h"
#include "device/cuda/CudaCheck.h"

namespace pinscope {
namespace {

constexpr TimeNs kReanchorEvery = 1'000'000'000;
constexpr TimeNs kRateBaselineAtLeast = 2'000'000'000;
constexpr int kBracketTries = 5;
// Clocks of the same machine disagree by parts per million; anything larger is a bad bracket.
constexpr double kMaxRateError = 5e-4;

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
    if (first_ && best->host_ns - first_->host_ns >= kRateBaselineAtLeast) {
        float ms = 0;
        cuda_call("cudaEventElapsedTime", ordinal_, [&] { return cudaEventElapsedTime(&ms, first_->event, best->event); });
        const double gpu_ns = static_cast<double>(ms) * 1e6;
        const double rate = static_cast<double>(best->host_ns - first_->host_ns) / gpu_ns;
        best->rate = std::clamp(rate, 1.0 - kMaxRateError, 1.0 + kMaxRateError);
    } else if (current_) {
        best->rate = current_->rate;
    }
    return best;
}

std::shared_ptr<const ClockAnchor> CudaClock::anchor() {
    if (now_ns() - current_->host_ns >= kReanchorEvery) current_ = take_anchor();
    return current_;
}

TimeNs CudaClock::to_host(const ClockAnchor& anchor, cudaEvent_t event) const {
    float ms = 0;
    cuda_call("cudaEventElapsedTime", ordinal_, [&] { return cudaEventElapsedTime(&ms, anchor.event, event); });
    return anchor.host_ns + static_cast<TimeNs>(std::llround(static_cast<double>(ms) * 1e6 * anchor.rate));
}

TimeNs CudaClock::uncertainty_ns() const { return current_->half_width_ns; }

}  // namespace pinscope
