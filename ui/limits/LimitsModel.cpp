// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/LimitsModel.h"

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
    } else {
        for (const Marker& m : frame.markers)
            if (m.kind == MarkerKind::Reconfigured && m.time > a.segment_start) a.finished = true;
    }
    const TimeNs from = a.segment_start + kWarmUp;
    for (const Span& span : frame.spans)
        if (span.stage == Stage::Compute && span.end > from) ++measured_batches_;
    a.segment_s = static_cast<double>(frame.time - a.segment_start) * 1e-9;
    if (frame.time - from >= kMeasureS)
        a.measured_batches_per_s = static_cast<double>(measured_batches_) / (static_cast<double>(frame.time - from) * 1e-9);
    if (frame.ended) a.finished = true;
}

bool LimitsModel::due() const {
    if (recorded_ || !has_run_ || bottleneck_.resource == Resource::None) return false;
    if (requested_ == config_ + '\n' + std::string(to_string(bottleneck_.resource))) return false;
    if (whole_run_) return true;  // the run ended: its whole-run bottleneck, as the CLI predicts after a run
    const TimeNs stable_for = requested_config_ == config_ ? kStableAgain : kStableFirst;
    return time_ - segment_start_ >= kSettled && time_ - stable_since_ >= stable_for;
}

std::optional<RunSummary> LimitsModel::take_prediction_due() {
    if (!due()) return std::nullopt;
    requested_ = config_ + '\n' + std::string(to_string(bottleneck_.resource));
    requested_config_ = config_;
    RunSummary basis = summary_;
    basis.bottleneck = bottleneck_;
    return basis;
}

}  // namespace pinscope::ui
