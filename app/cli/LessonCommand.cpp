// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/LessonCommand.h"

#include <chrono>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/RunDriver.h"
#include "engine/config/ConfigValidation.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/lesson/ClaimCheck.h"
#include "engine/lesson/LessonFigures.h"
#include "engine/lesson/LessonLoader.h"
#include "engine/lesson/LessonRun.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {
namespace {

constexpr double kMinScale = 0.05;
constexpr double kMaxScale = 20;

double lesson_seconds(const Lesson& lesson) {
    double total = 0;
    for (const LessonStep& step : lesson.steps) total += step.refused() ? 0 : step.seconds;
    return total;
}

// The figures every step prints, claimed or not, so that a failing claim can be read against them.
std::string step_figures(const StepResult& result) {
    if (!result.ran) return result.refused.empty() ? "failed: " + printable(result.summary.error, 4 * kEchoChars)
                                                   : "refused: " + result.refused;
    std::string text;
    for (const char* name : {"batches_per_s", "gpu_busy", "copy_hidden", "host_held", "pinned_peak"}) {
        const LessonFigure& figure = *find_lesson_figure(name);
        if (const auto value = figure_value(figure, result))
            text += (text.empty() ? "" : ", ") + figure.label + " " + figure_text(figure, *value);
    }
    const Bottleneck& b = result.window_bottleneck;
    text += "; bound by " + std::string(describe(b.resource)) + " (busy " + format_fixed(b.utilisation * 100, 0) + " %)";
    return text;
}

std::string step_heading(const Lesson& lesson, std::size_t index) {
    const LessonStep& step = lesson.steps[index];
    std::string text = "  step " + std::to_string(index + 1) + " " + printable(step.title, 2 * kEchoChars);
    if (!step.changes.empty()) {
        text += " (";
        for (std::size_t i = 0; i < step.changes.size(); ++i) text += (i ? ", " : "") + step.changes[i];
        text += ")";
    }
    return text;
}

}  // namespace

LessonCommand::LessonCommand(CLI::App& app)
    : command_(app.add_subcommand("lesson", "Workshop lessons: list them, or run their steps here and check their claims")),
      list_(command_->add_subcommand("list", "The built-in lessons: name, steps, run time and title")),
      check_(command_->add_subcommand("check", "Run a lesson's steps here and check each claim on its run; exit 0 only if all hold")),
      record_(*check_) {
    command_->require_subcommand(1);
    check_->add_option("LESSON", lesson_, "a built-in lesson's name, a lesson file (docs/lessons.md), or all")
        ->type_name("NAME|FILE|all");
    check_->add_option("--device", device_,
                       "the device every step runs on, unless the lesson names its own: auto, emulated, "
                       "emulated:PROFILE, cuda, cuda:N")
        ->type_name("DEVICE");
    check_->add_option("--retries", retries_,
                       "run a step again, at most this many times, when this machine fell behind the modelled host "
                       "by more than 5 % of it (its figures then show the machine, not the model); the run that lagged "
                       "least is checked (default 2)")
        ->type_name("N")
        ->check(CLI::Range(0, 10));
    check_->add_option("--seconds-scale", seconds_scale_,
                       "run each step this many times its set length (" + format_shortest(kMinScale) + " to " +
                           format_shortest(kMaxScale) + "); shorter runs measure less steadily")
        ->type_name("X");
}

bool LessonCommand::selected() const { return command_->parsed(); }

int LessonCommand::execute() const { return list_->parsed() ? list() : check(); }

int LessonCommand::list() const {
    std::vector<Lesson> lessons;
    try {
        lessons = builtin_lessons();
    } catch (const LessonError& error) {
        std::cerr << kProgram << ": " << error.what() << '\n';
        return kExitUsage;
    }
    std::size_t width = 0;
    for (const Lesson& lesson : lessons) width = std::max(width, lesson.name.size());
    for (const Lesson& lesson : lessons)
        std::cout << lesson.name << std::string(width + 2 - lesson.name.size(), ' ') << lesson.steps.size() << " steps, "
                  << format_shortest(lesson_seconds(lesson)) << " s  " << lesson.title << '\n';
    return kExitOk;
}

int LessonCommand::check() const {
    if (!(seconds_scale_ >= kMinScale && seconds_scale_ <= kMaxScale))
        reject_flag("--seconds-scale", format_shortest(seconds_scale_),
                    "a number from " + format_shortest(kMinScale) + " to " + format_shortest(kMaxScale));
    LoaderConfig probe;
    probe.device = device_;
    for (const ConfigIssue& issue : find_config_issues(probe))
        if (issue.field == "device") throw UsageError(issue.message("--device"));

    // Said once, not at every step's run.
    const ResolvedDevice device = resolve_device(device_);
    if (!device.note.empty()) std::cerr << kProgram << ": " << device.note << '\n';
    LessonOptions options;
    options.device = device.device;
    std::vector<Lesson> lessons;
    try {
        if (lesson_ == "all") lessons = builtin_lessons(options);
        else lessons.push_back(load_lesson(lesson_, options));
    } catch (const LessonError& error) {
        std::cerr << kProgram << ": " << error.what() << '\n';
        return kExitUsage;
    }

    const std::shared_ptr<RecordingWriter> recording = record_.open();
    RunDriver driver(recording, Measurement{kLessonWindowS});
    const auto began = std::chrono::steady_clock::now();
    std::vector<std::string> failed;
    for (const Lesson& lesson : lessons) {
        std::cout << "lesson " << lesson.name << ": " << printable(lesson.title, 2 * kEchoChars) << '\n' << std::flush;
        std::vector<StepResult> results;
        bool passed = true;
        for (std::size_t i = 0; i < lesson.steps.size() && !RunDriver::interrupted(); ++i) {
            const LessonStep& step = lesson.steps[i];
            StepResult result;
            for (unsigned attempt = 0; attempt <= retries_ && !RunDriver::interrupted(); ++attempt) {
                // A run this machine could not keep up with shows the machine, not the model: the
                // step runs again, and the run that lagged least is the one checked.
                if (attempt > 0)
                    std::cout << "    again  this machine fell behind the modelled host by "
                              << format_fixed(result.summary.model_lag * 100, 1) << " % of the run: run " << attempt + 1
                              << " of at most " << retries_ + 1 << '\n' << std::flush;
                StepResult run;
                try {
                    driver.run(step_config(step, seconds_scale_));
                    const Runner& runner = driver.runner();
                    run = step_result(runner.summary(), runner.window_metrics(), runner.window_bottleneck());
                    if (recording && RecordFlag::finish(*recording, runner.summary())) run.recorded_run = recording->run_id();
                } catch (const ConfigError& error) {
                    run.refused = error.issue().message();
                }
                if (attempt == 0 || (run.ran && run.summary.model_lag < result.summary.model_lag)) result = run;
                if (!result.ran || result.summary.model_lag <= kModelLagNoted) break;
            }
            results.push_back(result);
            std::cout << step_heading(lesson, i) << ": " << step_figures(result)
                      << (result.recorded_run ? ", recorded as run " + std::to_string(result.recorded_run) : "") << '\n';
            for (const ClaimOutcome& outcome : check_step(lesson, i, results)) {
                passed = passed && outcome.holds;
                std::cout << "    " << (outcome.holds ? "pass  " : "FAIL  ") << outcome.statement << ": " << outcome.measured << '\n';
            }
            if (const std::string lag = lag_note(result); !lag.empty()) std::cout << "    note  " << lag << '\n';
            std::cout << std::flush;
        }
        if (RunDriver::interrupted()) break;
        std::cout << "  " << (passed ? "pass" : "FAIL") << '\n';
        if (!passed) failed.push_back(lesson.name);
    }
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (RunDriver::interrupted()) {
        std::cerr << kProgram << ": interrupted\n";
        return app::InterruptSignals::exit_status();
    }
    std::cout << lessons.size() << " lesson" << (lessons.size() == 1 ? "" : "s") << ", " << lessons.size() - failed.size()
              << " passed";
    if (!failed.empty()) {
        std::cout << ", " << failed.size() << " failed:";
        for (const std::string& name : failed) std::cout << ' ' << name;
    }
    std::cout << " (" << format_fixed(took, 0) << " s, device " << printable(device.device) << ")\n";
    return failed.empty() ? kExitOk : kExitFailure;
}

}  // namespace pinscope::cli
