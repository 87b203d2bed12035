// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lesson's claims checked on its steps' runs, and what the answer says when this hardware did
// not show the effect.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/lesson/Lesson.h"
#include "engine/lesson/StepResult.h"

namespace pinscope {

struct ClaimOutcome {
    bool holds = false;
    std::string statement;  // "batches/s rises by at least 20 % against step 1"
    std::string measured;   // "412 batches/s against 305 batches/s (+35 %)"
};

// The claim as people read it.
std::string claim_statement(const Claim& claim);
// Checks `claim` of step `step` (from 0) on `results` (indexed by step; a step it needs that has
// no run makes it fail, saying so).
ClaimOutcome check_claim(const Claim& claim, std::size_t step, const std::vector<StepResult>& results);
std::vector<ClaimOutcome> check_step(const Lesson& lesson, std::size_t step, const std::vector<StepResult>& results);

// Empty when every outcome holds; else the plain statement that this run did not show the
// effect, which claims and by how much, why (the step's bottleneck sentence), the lesson's own
// "absent" text, and a note when this machine fell behind the modelled host.
std::string absent_text(const LessonStep& step, const StepResult& result, const std::vector<ClaimOutcome>& outcomes);

// "fell behind the modelled host by 14.8 % of the run: ..." when the run's model lag was noted; empty otherwise.
std::string lag_note(const StepResult& result);

}  // namespace pinscope
