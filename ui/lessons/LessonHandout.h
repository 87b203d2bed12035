// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lesson's printable handout: a title page (the lesson, what the class will learn, where it ran),
// then one page per step: its question and choices, the answer with the run's numbers, each claim
// as checked on the run, what did not show and why, and the window as it was at the step's end.
#include <QImage>
#include <QString>

#include <vector>

#include "engine/lesson/LessonSession.h"

namespace pinscope::ui {

// `shots`: one picture per step (a null image leaves the picture out). Written whole or not at
// all; throws std::runtime_error naming the file when it cannot be written.
void write_handout(const QString& path, const LessonSession& session, const std::vector<QImage>& shots,
                   const QString& device);

}  // namespace pinscope::ui
