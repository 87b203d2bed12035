// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lesson as a class goes through it: the step shown, whether its question is being asked, its
// run is going or its answer is revealed, and every step's result so far (a step run again
// replaces its result). The window's Lessons panel and the handout read it; it runs nothing.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/lesson/ClaimCheck.h"
#include "engine/lesson/Lesson.h"
#include "engine/lesson/StepResult.h"

namespace pinscope {

// What a step's answer says, with its run's numbers.
struct StepReveal {
    std::string right_choice;            // "2. It is held inside the copy ..."
    std::string answer;                  // the reveal with its placeholders filled
    std::vector<ClaimOutcome> outcomes;  // each claim, checked on the run
    std::string absent;                  // empty when every claim held: else what did not show, and why
    bool ran = false;                    // the step has a result (a refused step counts)
};

class LessonSession {
public:
    enum class Phase { Asking, Running, Revealed };

    explicit LessonSession(Lesson lesson);

    const Lesson& lesson() const { return lesson_; }
    std::size_t step() const { return step_; }  // from 0
    const LessonStep& current() const { return lesson_.steps[step_]; }
    Phase phase() const { return phase_; }
    bool can_back() const { return step_ > 0; }
    bool can_next() const { return step_ + 1 < lesson_.steps.size(); }
    // To the previous or next step, asking its question (its earlier result, if any, is kept).
    void back();
    void next();
    void go_to(std::size_t step);  // clamped to the last step

    // The current step's run has started / ended with `result`, which is revealed then.
    void started();
    void finished(StepResult result);
    // Reveals the current step's answer without a new run (its last result, if any).
    void reveal();

    const std::vector<StepResult>& results() const { return results_; }
    bool has_result(std::size_t step) const;
    StepReveal reveal_of(std::size_t step) const;
    // The steps before `step` that have a result, for "compare with step K".
    std::vector<std::size_t> steps_with_results() const;

private:
    Lesson lesson_;
    std::size_t step_ = 0;
    Phase phase_ = Phase::Asking;
    std::vector<StepResult> results_;  // one per step; a step not run has ran false and nothing refused
    std::vector<bool> has_result_;
};

}  // namespace pinscope
