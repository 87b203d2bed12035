// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/LessonPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/lessons/LessonHtml.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

QLabel* wrapped(QLabel* label) {
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);  // every text is escaped: a lesson's < and & show as written
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

LessonPanel::LessonPanel(QWidget* parent)
    : QWidget(parent),
      title_(wrapped(new QLabel)),
      learn_(wrapped(new QLabel)),
      step_(wrapped(new QLabel)),
      changes_(wrapped(new QLabel)),
      question_(wrapped(new QLabel)),
      answer_(wrapped(new QLabel)),
      back_(new QPushButton(QStringLiteral("◀ Back"))),
      ask_(new QPushButton(QStringLiteral("Ask"))),
      run_(new QPushButton(QStringLiteral("Run step"))),
      reveal_(new QPushButton(QStringLiteral("Reveal"))),
      next_(new QPushButton(QStringLiteral("Next ▶"))),
      compare_step_(new QComboBox),
      compare_(new QPushButton(QStringLiteral("Compare with"))) {
    title_->setFont(app_font(12, true));
    step_->setFont(app_font(10, true));
    changes_->setStyleSheet(QStringLiteral("color: #1F5FAF;"));
    learn_->setStyleSheet(QStringLiteral("color: #4A525C;"));
    question_->setTextFormat(Qt::RichText);
    answer_->setTextFormat(Qt::RichText);
    answer_->setStyleSheet(QStringLiteral("QLabel { background: white; border: 1px solid #D8DDE3; border-radius: 6px; padding: 8px; }"));
    back_->setToolTip(QStringLiteral("The previous step"));
    ask_->setToolTip(QStringLiteral("Show the step's question and choices, the answer hidden"));
    run_->setToolTip(QStringLiteral("Run this step's configuration in the window for its set time; the answer is revealed at its end"));
    reveal_->setToolTip(QStringLiteral("Show the answer with the step's last run's numbers"));
    next_->setToolTip(QStringLiteral("The next step"));
    compare_->setToolTip(QStringLiteral("Open this step's kept run beside the chosen step's"));
    compare_->setObjectName(QStringLiteral("compareSteps"));
    compare_step_->setObjectName(QStringLiteral("compareStep"));

    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(8);
    layout->addWidget(title_);
    layout->addWidget(learn_);
    layout->addWidget(step_);
    layout->addWidget(changes_);
    layout->addWidget(question_);
    layout->addWidget(answer_);
    for (QLabel* label : {title_, learn_, step_, changes_, question_, answer_}) label->setMinimumWidth(1);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the text wraps to the panel's width

    // Two short rows, so that the panel stays narrow beside the timeline.
    auto* moves = new QHBoxLayout;
    moves->addWidget(back_);
    moves->addWidget(next_);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {ask_, run_, reveal_}) buttons->addWidget(b);
    auto* compare_row = new QHBoxLayout;
    compare_row->addWidget(compare_);
    compare_row->addWidget(compare_step_, 1);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 4);
    outer->addWidget(scroll, 1);
    outer->addLayout(buttons);
    outer->addLayout(moves);
    outer->addLayout(compare_row);

    connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
    connect(ask_, &QPushButton::clicked, this, &LessonPanel::ask);
    connect(run_, &QPushButton::clicked, this, &LessonPanel::run);
    connect(reveal_, &QPushButton::clicked, this, &LessonPanel::reveal);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
    connect(compare_, &QPushButton::clicked, this, [this] {
        if (!session_ || !compare_hook_ || compare_step_->currentIndex() < 0) return;
        const auto other = static_cast<std::size_t>(compare_step_->currentData().toULongLong());
        const auto& results = session_->results();
        compare_hook_(results[other].recorded_run, results[session_->step()].recorded_run);
    });
    title_->setText(QStringLiteral("No lesson open"));
    learn_->setText(QStringLiteral("Choose one from the Lessons menu."));
    show_step();
}

void LessonPanel::open(Lesson lesson) {
    session_ = std::make_unique<LessonSession>(std::move(lesson));
    title_->setText(lesson_html(session_->lesson().title));
    learn_->setText(lesson_html(session_->lesson().learn));
    show_step();
}

void LessonPanel::set_compare_hook(std::function<void(std::int64_t, std::int64_t)> hook) {
    compare_hook_ = std::move(hook);
    show_step();
}

void LessonPanel::back() {
    if (!session_) return;
    session_->back();
    show_step();
}

void LessonPanel::next() {
    if (!session_) return;
    session_->next();
    show_step();
}

void LessonPanel::go_to(std::size_t step) {
    if (!session_) return;
    session_->go_to(step);
    show_step();
}

void LessonPanel::ask() {
    if (!session_) return;
    session_->go_to(session_->step());
    show_step();
}

void LessonPanel::run() {
    if (!session_ || session_->phase() == LessonSession::Phase::Running) return;
    session_->started();
    show_step();
    emit runRequested(session_->current().config);
}

void LessonPanel::reveal() {
    if (!session_ || session_->phase() == LessonSession::Phase::Running) return;
    session_->reveal();
    show_step();
}

void LessonPanel::step_finished(StepResult result) {
    if (!session_) return;
    session_->finished(std::move(result));
    show_step();
    emit stepFinished(session_->step());
}

QString LessonPanel::question_text() const { return question_->text(); }
QString LessonPanel::answer_text() const { return answer_->text(); }
bool LessonPanel::answer_shown() const { return !answer_->isHidden(); }

void LessonPanel::show_step() {
    const bool open = session_ != nullptr;
    for (QWidget* w : std::initializer_list<QWidget*>{back_, ask_, run_, reveal_, next_}) w->setEnabled(open);
    step_->setVisible(open);
    changes_->setVisible(open);
    question_->setVisible(open);
    answer_->setVisible(open && session_->phase() != LessonSession::Phase::Asking);
    compare_->setVisible(open && compare_hook_ != nullptr);
    compare_step_->setVisible(open && compare_hook_ != nullptr);
    if (!open) return;
    const LessonSession& s = *session_;
    const LessonStep& step = s.current();
    const bool running = s.phase() == LessonSession::Phase::Running;
    back_->setEnabled(s.can_back() && !running);
    next_->setEnabled(s.can_next() && !running);
    run_->setEnabled(!running);
    ask_->setEnabled(!running);
    reveal_->setEnabled(!running && s.phase() != LessonSession::Phase::Revealed);
    step_->setText(QStringLiteral("Step %1 of %2: %3").arg(s.step() + 1).arg(s.lesson().steps.size()).arg(lesson_html(step.title)));
    QString changes;
    for (const std::string& change : step.changes) changes += (changes.isEmpty() ? QString() : QStringLiteral(", ")) + lesson_html(change);
    changes_->setText(changes.isEmpty() ? QString() : QStringLiteral("Changes: ") + changes);
    changes_->setVisible(!changes.isEmpty());

    const bool revealed = s.phase() == LessonSession::Phase::Revealed;
    QString question = QStringLiteral("<p><b>%1</b></p><ol>").arg(lesson_html(step.question));
    for (std::size_t i = 0; i < step.choices.size(); ++i) {
        const bool right = revealed && i == step.answer;
        question += right ? QStringLiteral("<li><b style='color:#007A55'>%1 ✔</b></li>").arg(lesson_html(step.choices[i]))
                          : QStringLiteral("<li>%1</li>").arg(lesson_html(step.choices[i]));
    }
    question += QStringLiteral("</ol>");
    question_->setText(question);
    answer_->setText(running ? QStringLiteral("<i>Running for %1 s…</i>").arg(step.seconds) : reveal_html());

    compare_step_->clear();
    if (compare_hook_) {
        const auto& results = s.results();
        for (std::size_t k : s.steps_with_results())
            if (k != s.step() && results[k].recorded_run > 0)
                compare_step_->addItem(QStringLiteral("step %1: %2").arg(k + 1).arg(QString::fromStdString(s.lesson().steps[k].title)),
                                       QVariant::fromValue<qulonglong>(k));
        const bool here = s.has_result(s.step()) && s.results()[s.step()].recorded_run > 0;
        compare_->setEnabled(here && compare_step_->count() > 0 && !running);
    }
    emit stepShown(step.highlight);
}

QString LessonPanel::reveal_html() const {
    const StepReveal r = session_->reveal_of(session_->step());
    QString text = QStringLiteral("<p><b>Answer: %1</b></p>").arg(lesson_html(r.right_choice));
    if (!r.ran) return text + QStringLiteral("<p><i>This step has not run yet: Run step fills in its numbers.</i></p>");
    text += QStringLiteral("<p>%1</p>").arg(lesson_html(r.answer));
    text += QStringLiteral("<p><b>Checked on this run:</b><br>");
    for (const ClaimOutcome& o : r.outcomes)
        text += QStringLiteral("%1 %2: %3<br>")
                    .arg(o.holds ? QStringLiteral("<b style='color:#007A55'>✔ holds</b>") : QStringLiteral("<b style='color:#C0392B'>✘ not shown</b>"),
                         lesson_html(o.statement), lesson_html(o.measured));
    text += QStringLiteral("</p>");
    if (!r.absent.empty())
        text += QStringLiteral("<p style='background:#FFF4D6'>%1</p>").arg(lesson_html(r.absent));
    return text;
}

}  // namespace pinscope::ui
