// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/LessonSession.h"

#include <algorithm>

#include "engine/lesson/LessonText.h"

namespace pinscope {

LessonSession::LessonSession(Lesson lesson)
    : lesson_(std::move(lesson)), results_(lesson_.steps.size()), has_result_(lesson_.steps.size(), false) {}

void LessonSession::back() {
    if (can_back()) go_to(step_ - 1);
}

void LessonSession::next() {
    if (can_next()) go_to(step_ + 1);
}

void LessonSession::go_to(std::size_t step) {
    step_ = std::min(step, lesson_.steps.empty() ? 0 : lesson_.steps.size() - 1);
    phase_ = Phase::Asking;
}

void LessonSession::started() { phase_ = Phase::Running; }

void LessonSession::finished(StepResult result) {
    results_[step_] = std::move(result);
    has_result_[step_] = true;
    phase_ = Phase::Revealed;
}

void LessonSession::reveal() { phase_ = Phase::Revealed; }

bool LessonSession::has_result(std::size_t step) const { return step < has_result_.size() && has_result_[step]; }

StepReveal LessonSession::reveal_of(std::size_t step) const {
    StepReveal reveal;
    if (step >= lesson_.steps.size()) return reveal;
    const LessonStep& s = lesson_.steps[step];
    reveal.right_choice = std::to_string(s.answer + 1) + ". " + s.choices[s.answer];
    reveal.ran = has_result(step);
    if (!reveal.ran) return reveal;
    reveal.answer = fill_placeholders(s.reveal, lesson_, step, results_);
    reveal.outcomes = check_step(lesson_, step, results_);
    reveal.absent = absent_text(s, results_[step], reveal.outcomes);
    return reveal;
}

std::vector<std::size_t> LessonSession::steps_with_results() const {
    std::vector<std::size_t> steps;
    for (std::size_t i = 0; i < has_result_.size(); ++i)
        if (has_result_[i]) steps.push_back(i);
    return steps;
}

}  // namespace pinscope
