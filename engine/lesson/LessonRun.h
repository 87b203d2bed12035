// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One lesson step run on the engine, headless (pinscope-cli lesson check; the window runs its
// steps through its own feed and takes the same figures from its last frame).
#include <memory>

#include "engine/lesson/Lesson.h"
#include "engine/lesson/StepResult.h"
#include "engine/runner/RunRecorder.h"
#include "engine/trace/MessageSink.h"

namespace pinscope {

struct StepRunOptions {
    double seconds_scale = 1;                 // each step runs seconds x this
    std::shared_ptr<RunRecorder> recorder;    // fed the run (begin, records); its owner finishes it
    MessageSink messages;
};

// The step's configuration with its length scaled.
LoaderConfig step_config(const LessonStep& step, double seconds_scale);

// Runs the step to its end and returns its figures. A configuration the engine refuses comes back
// as `refused` (the message), not thrown; a device that cannot be opened throws DeviceError.
StepResult run_lesson_step(const LessonStep& step, const StepRunOptions& options = {});

// The result of a run that has ended, from its summary and its last window: what the window
// takes from its last frame.
StepResult step_result(const RunSummary& summary, const Metrics& window, const Bottleneck& window_bottleneck);

}  // namespace pinscope
