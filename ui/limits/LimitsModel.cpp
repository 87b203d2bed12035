// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/LimitsModel.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigJson.h"

namespace pinscope::ui {

bool LimitsModel::take(const RunFrame& frame) {
    bool stale = false;
    if (frame.first) {
        // A suggestion applied while no run went is measured on this new run (from its start).
        std::optional<AppliedAdvice> waiting;
        if (applied_ && !applied_->started && !frame.recorded) waiting = applied_;
        *this = LimitsModel{};
        applied_ = waiting;
        has_run_ = true;
        stale = true;
    }
    recorded_ = frame.recorded != nullptr;
    running_ = !recorded_ && !frame.ended;
    time_ = frame.time;
    summary_ = frame.summary;
    memory_ = frame.summary.memory;
    if (frame.first) segment_start_ = frame.origin;
    const std::string config = to_json(frame.summary.config).dump();
    if (config != config_) {
        if (!config_.empty()) stale = true;
        config_ = config;
    }
    for (const Marker& marker : frame.markers)
        if (marker.kind == MarkerKind::Reconfigured) segment_start_ = marker.time;

    whole_run_ = frame.ended || recorded_;
    bottleneck_ = whole_run_ || frame.window_bottleneck.resource == Resource::None ? frame.summary.bottleneck
                                                                                   : frame.window_bottleneck;
    if (recorded_) recorded_advice_ = frame.summary.advice;
    if (bottleneck_.resource != stable_resource_) {
        stable_resource_ = bottleneck_.resource;
        stable_since_ = frame.time;
    }
    measure(frame);
    return stale;
}

void LimitsModel::applied(const Advice& advice) {
    applied_ = AppliedAdvice{};
    applied_->advice = advice;
    measured_batches_ = 0;
}

void LimitsModel::measure(const RunFrame& frame) {
    if (!applied_ || applied_->finished || recorded_) return;
    AppliedAdvice& a = *applied_;
    if (!a.started) {
        // Applied to a running engine: the next reconfiguration; applied while none ran: this new run.
        std::optional<TimeNs> start;
        if (frame.first) start = frame.origin;
        for (const Marker& m : frame.markers)
            if (m.kind == MarkerKind::Reconfigured && !start) start = m.time;
        if (!start) return;
        a.started = true;
        a.segment_start = *start;
    }
    TimeNs end = std::min(frame.time, a.segment_start + kMeasured);
    for (const Marker& m : frame.markers)
        if (m.kind == MarkerKind::Reconfigured && m.time > a.segment_start) end = std::min(end, m.time);
    const TimeNs from = a.segment_start + kWarmUp;
    for (const Span& span : frame.spans)
        if (span.stage == Stage::Compute && span.end > from && span.end <= end) ++measured_batches_;
    a.segment_s = static_cast<double>(end - a.segment_start) * 1e-9;
    if (end - from >= kMeasureFirst)
        a.measured_batches_per_s = static_cast<double>(measured_batches_) / (static_cast<double>(end - from) * 1e-9);
    a.finished = frame.ended || end < frame.time || end == a.segment_start + kMeasured;
}

std::optional<Resource> LimitsModel::settled() const {
    if (recorded_ || !has_run_ || bottleneck_.resource == Resource::None) return std::nullopt;
    if (applied_ && !applied_->finished) return std::nullopt;
    if (whole_run_) return bottleneck_.resource;
    if (time_ - segment_start_ >= kSettled && time_ - stable_since_ >= kStable) return bottleneck_.resource;
    return std::nullopt;
}

RunSummary LimitsModel::basis() const {
    RunSummary basis = summary_;
    basis.bottleneck = bottleneck_;
    return basis;
}

}  // namespace pinscope::ui
