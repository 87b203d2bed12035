// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Lessons panel: the open lesson's title and what the class will learn, the step shown (its
// title and what it changes), its question and choices, and, once revealed, the right choice, the
// answer with the run's numbers, each claim checked, and what did not show and why. Back and Next
// step through the lesson, Ask shows the question again, Run runs the step in the window, Reveal
// shows the answer. It runs nothing itself: the window answers runRequested with stepFinished.
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

#include "engine/lesson/LessonSession.h"

class QComboBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace pinscope::ui {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    void open(Lesson lesson);
    bool has_lesson() const { return session_ != nullptr; }
    const LessonSession* session() const { return session_.get(); }
    // The step's run ended with `result` (refused, failed or ran): it is revealed.
    void step_finished(StepResult result);
    // Offers "Compare with step K" for steps whose runs were kept: called with the two steps'
    // recorded run numbers (K's, then the current step's). Unset: not offered.
    void set_compare_hook(std::function<void(std::int64_t, std::int64_t)> hook);

    // What a person does, also for tests and the headless paths.
    void back();
    void next();
    void ask();
    void run();
    void reveal();
    void go_to(std::size_t step);

    // What the panel shows (tests).
    QString question_text() const;
    QString answer_text() const;
    bool answer_shown() const;

signals:
    void runRequested(const pinscope::LoaderConfig& config);
    // The step shown changed (or its phase): the window brings its highlight forward.
    void stepShown(const pinscope::Highlight& highlight);
    // A step's run ended and its answer is revealed (`step` from 0).
    void stepFinished(std::size_t step);

private:
    void show_step();
    QString reveal_html() const;

    std::unique_ptr<LessonSession> session_;
    std::function<void(std::int64_t, std::int64_t)> compare_hook_;
    QLabel* title_;
    QLabel* learn_;
    QLabel* step_;
    QLabel* changes_;
    QLabel* question_;
    QLabel* answer_;
    QPushButton* back_;
    QPushButton* ask_;
    QPushButton* run_;
    QPushButton* reveal_;
    QPushButton* next_;
    QComboBox* compare_step_;
    QPushButton* compare_;
};

}  // namespace pinscope::ui
