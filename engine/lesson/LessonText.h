// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A step's answer with the run's own numbers: "{batches_per_s}" becomes "412 batches/s" (this
// step's), "{batches_per_s@1}" step 1's, "{bottleneck}" the sentence that names this step's
// bottleneck with its arithmetic, "{bound}" the resource it names ("the pin thread"), "{changes}"
// what this step changed. Any of them takes @K for step K's.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/lesson/Lesson.h"
#include "engine/lesson/StepResult.h"

namespace pinscope {

// Empty when every placeholder of `text` names a figure or one of the words above and a step from
// 1 to `step` (this step, from 1); else what is wrong, for the loader's message.
std::string check_placeholders(const std::string& text, std::size_t step);

// `text` with its placeholders filled from `results` (indexed by step, from 0; a step without a
// result reads "(not run)"). `step` is this step, from 0.
std::string fill_placeholders(const std::string& text, const Lesson& lesson, std::size_t step,
                              const std::vector<StepResult>& results);

}  // namespace pinscope
