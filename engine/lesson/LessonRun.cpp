// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/LessonRun.h"

#include "engine/config/ConfigError.h"
#include "engine/runner/Runner.h"

namespace pinscope {

LoaderConfig step_config(const LessonStep& step, double seconds_scale) {
    LoaderConfig config = step.config;
    config.batches.reset();
    config.seconds = step.seconds * seconds_scale;
    return config;
}

StepResult step_result(const RunSummary& summary, const Metrics& window, const Bottleneck& window_bottleneck) {
    StepResult result;
    result.ran = summary.error.empty();
    result.summary = summary;
    result.window = window;
    result.window_bottleneck = window_bottleneck;
    return result;
}

StepResult run_lesson_step(const LessonStep& step, const StepRunOptions& options) {
    RunnerOptions runner_options;
    runner_options.window_s = kLessonWindowS;
    runner_options.recorder = options.recorder;
    runner_options.messages = options.messages;
    Runner runner(runner_options);
    try {
        runner.start(step_config(step, options.seconds_scale));
    } catch (const ConfigError& error) {
        StepResult refused;
        refused.refused = error.issue().message();
        return refused;
    }
    runner.wait();
    return step_result(runner.summary(), runner.window_metrics(), runner.window_bottleneck());
}

}  // namespace pinscope
