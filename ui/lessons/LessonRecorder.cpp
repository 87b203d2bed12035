// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/LessonRecorder.h"

namespace pinscope::ui {

void LessonRecorder::arm(std::shared_ptr<RecordingWriter> recording) {
    const std::lock_guard lock(mutex_);
    armed_ = std::move(recording);
}

void LessonRecorder::begin(const RunStart& start) {
    std::shared_ptr<RecordingWriter> target;
    {
        const std::lock_guard lock(mutex_);
        current_ = std::move(armed_);
        armed_.reset();
        target = current_;
    }
    if (!target) return;
    target->begin(start);
    const std::lock_guard lock(mutex_);
    last_run_ = target->run_id();
}

void LessonRecorder::record(const TraceDelta& delta) {
    std::shared_ptr<RecordingWriter> target;
    {
        const std::lock_guard lock(mutex_);
        target = current_;
    }
    if (target) target->record(delta);
}

void LessonRecorder::record(const NumaSample& sample) {
    std::shared_ptr<RecordingWriter> target;
    {
        const std::lock_guard lock(mutex_);
        target = current_;
    }
    if (target) target->record(sample);
}

void LessonRecorder::begin_segment(const RunSegment& segment) {
    std::shared_ptr<RecordingWriter> target;
    {
        const std::lock_guard lock(mutex_);
        target = current_;
    }
    if (target) target->begin_segment(segment);
}

void LessonRecorder::finish(const RunSummary& summary) {
    std::shared_ptr<RecordingWriter> target;
    {
        const std::lock_guard lock(mutex_);
        target = std::move(current_);
        current_.reset();
    }
    if (target) target->finish(summary);
}

std::int64_t LessonRecorder::last_run() const {
    const std::lock_guard lock(mutex_);
    return last_run_;
}

}  // namespace pinscope::ui
