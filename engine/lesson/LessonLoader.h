// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lesson files (docs/lessons.md) read into Lessons: the built-in ones (resources/lessons, compiled
// in) by name, or any file by path. A file that is not a valid lesson is refused with a message
// naming the file, the step and the field.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/lesson/Lesson.h"

namespace pinscope {

class LessonError : public std::runtime_error {
public:
    // `step` from 1; 0 for the lesson's own fields.
    LessonError(const std::string& file, std::size_t step, const std::string& field, const std::string& problem);
    const std::string& file() const { return file_; }
    std::size_t step() const { return step_; }
    const std::string& field() const { return field_; }

private:
    std::string file_;
    std::size_t step_;
    std::string field_;
};

struct LessonOptions {
    // Every step's device, unless the lesson names its own: "auto", "emulated", "cuda:0", ...
    std::string device = "auto";
};

// The built-in lessons' names, in teaching order (the files' "order").
std::vector<std::string> builtin_lesson_names();
// A built-in lesson by name, or a lesson file by path. Throws LessonError.
Lesson load_lesson(const std::string& name_or_path, const LessonOptions& options = {});
// Every built-in lesson, in teaching order. Throws LessonError for a broken one.
std::vector<Lesson> builtin_lessons(const LessonOptions& options = {});
// A lesson from JSON text; `file` names it in messages, `name` is its stem.
Lesson parse_lesson(const std::string& text, const std::string& file, const std::string& name,
                    const LessonOptions& options = {});

}  // namespace pinscope
