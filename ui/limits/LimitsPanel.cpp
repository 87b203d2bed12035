// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/LimitsPanel.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine/text/TextFormat.h"
#include "ui/limits/UsageBars.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

QString rate(double batches_per_s) { return QString::fromStdString(format_fixed(batches_per_s, 0)); }
QString text(const std::string& s) { return QString::fromStdString(s); }

QLabel* wrapped_label(int point_size = 9, bool bold = false) {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setFont(app_font(point_size, bold));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QLabel* heading(const QString& title) {
    auto* label = new QLabel(title);
    label->setFont(app_font(10, true));
    label->setStyleSheet(QStringLiteral("color: #1F2328; padding-top: 6px;"));
    return label;
}

constexpr const char* kGrey = "color: #5A626C;";
constexpr const char* kMemoryOk = "QLabel { color: #1F2328; }";
constexpr const char* kMemoryWarn =
    "QLabel { color: #8A1C1C; background: #FDECEA; border: 1px solid #E0A19B; border-radius: 4px; padding: 4px; }";

}  // namespace

LimitsPanel::LimitsPanel(AdvicePredictor::Predict predict, QWidget* parent)
    : QWidget(parent), predictor_(std::move(predict)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);
    scope_ = wrapped_label(9);
    scope_->setStyleSheet(QString::fromLatin1(kGrey));
    sentence_ = wrapped_label(10);
    sentence_->setStyleSheet(QStringLiteral("color: #1F2328;"));
    bars_ = new UsageBars;
    memory_ = wrapped_label(9);
    status_ = wrapped_label(9);
    status_->setStyleSheet(QString::fromLatin1(kGrey));
    applied_ = wrapped_label(9);
    applied_->setStyleSheet(QStringLiteral("QLabel { background: #EEF5EC; border: 1px solid #B9D3B2; border-radius: 4px; padding: 4px; }"));
    applied_->hide();
    run_again_ = new QPushButton(QStringLiteral("Run this again here"));
    run_again_->setToolTip(QStringLiteral("A recorded run's suggestions apply to a live run: start one with the recorded "
                                          "configuration on this machine, then Apply"));
    run_again_->hide();
    connect(run_again_, &QPushButton::clicked, this, &LimitsPanel::runAgainRequested);

    layout->addWidget(heading(QStringLiteral("What limits this run")));
    layout->addWidget(scope_);
    layout->addWidget(sentence_);
    layout->addWidget(bars_);
    layout->addWidget(memory_);
    layout->addWidget(heading(QStringLiteral("What to try")));
    layout->addWidget(applied_);
    layout->addWidget(status_);
    suggestions_ = new QVBoxLayout;
    suggestions_->setSpacing(4);
    layout->addLayout(suggestions_);
    layout->addWidget(run_again_, 0, Qt::AlignLeft);
    layout->addStretch(1);

    connect(&predictor_, &AdvicePredictor::predicted, this, &LimitsPanel::prediction_done);
    // A cancelled request ends without a result: what has settled since (the run may have ended,
    // with no frame to follow) is asked for now.
    connect(&predictor_, &AdvicePredictor::idle, this, [this] {
        follow_predictions();
        show_state();
    });
    setMinimumWidth(280);
    show_state();
}

void LimitsPanel::take(const RunFrame& frame) {
    const bool stale = model_.take(frame);
    bool now = frame.first || frame.ended || stale || frame.time - shown_at_ >= kPeriod;
    if (stale) {
        predictor_.cancel();
        predicted_.clear();
        predicting_.reset();
        shown_for_.reset();
        clear_suggestions();
    }
    // A recording keeps what advise() said after the run: shown once the whole run is read.
    if (model_.recorded() && frame.ended) show_suggestions(model_.recorded_advice(), prediction_device(frame.summary), false);
    const bool was_busy = predictor_.busy();
    follow_predictions();
    if (now || was_busy != predictor_.busy()) {
        shown_at_ = frame.time;
        show_state();
    }
}

void LimitsPanel::follow_predictions() {
    const std::optional<Resource> settled = model_.settled();
    if (!settled || settled == shown_for_) return;
    if (const auto it = predicted_.find(*settled); it != predicted_.end()) {
        shown_for_ = settled;
        const Prediction& p = it->second;
        if (p.error.empty()) {
            show_suggestions(p.advice, p.device, true);
        } else {
            clear_suggestions();
            note_ = QStringLiteral("No predictions: %1").arg(text(p.error));
        }
        return;
    }
    if (predictor_.busy()) return;  // one for another bottleneck of this configuration: it finishes first
    predicting_ = settled;
    predictor_.request(model_.basis());
}

void LimitsPanel::show_state() {
    if (!model_.has_run()) {
        scope_->setText(QStringLiteral("No run yet"));
        sentence_->setText(QStringLiteral("Start a run: this panel names the resource that bounds its throughput, with the "
                                          "arithmetic, and what to try."));
        memory_->hide();
    } else {
        const Bottleneck& b = model_.bottleneck();
        scope_->setText(model_.recorded()   ? QStringLiteral("Recorded run · whole run")
                        : model_.whole_run() ? QStringLiteral("Run ended · whole run")
                                             : QStringLiteral("Running · the last second (whole run once it ends)"));
        sentence_->setText(b.evidence.empty() ? QStringLiteral("Nothing ran yet to measure.") : text(b.evidence));
        const MemoryPressure& m = model_.memory();
        memory_->setVisible(m.memory.known);
        if (m.warn()) {
            memory_->setText(QStringLiteral("<b>Warning: memory.</b> %1").arg(text(m.warning).toHtmlEscaped()));
            memory_->setStyleSheet(QString::fromLatin1(kMemoryWarn));
        } else {
            memory_->setText(QStringLiteral("Memory: %1").arg(text(m.figures).toHtmlEscaped()));
            memory_->setStyleSheet(QString::fromLatin1(kMemoryOk));
        }
        memory_->setToolTip(QStringLiteral("MemAvailable and swap from /proc/meminfo, against what this configuration may "
                                           "still lock and hold in flight; warns when that exceeds MemAvailable, or when "
                                           "swap in use grew during the run"));
    }
    bars_->show_usage(model_.bottleneck());
    bars_->setVisible(model_.bottleneck().resource != Resource::None);
    run_again_->setVisible(model_.recorded());
    if (predictor_.busy()) status_->setText(QStringLiteral("predicting… (a short emulated run of each change, off to the side)"));
    else if (!note_.isEmpty()) status_->setText(note_);
    else if (const auto& a = model_.applied_advice(); a && !a->finished && model_.running())
        status_->setText(QStringLiteral("Predicting again once the change is measured (5 s after it took effect)…"));
    else if (model_.running()) status_->setText(QStringLiteral("Waiting for the bottleneck to settle before predicting…"));
    else status_->clear();
    for (Row& row : rows_)
        if (row.apply) row.apply->setText(model_.running() ? QStringLiteral("Apply") : QStringLiteral("Apply and start"));
    show_applied();
}

void LimitsPanel::show_applied() {
    const std::optional<AppliedAdvice>& a = model_.applied_advice();
    applied_->setVisible(a.has_value());
    if (!a) return;
    QString line = QStringLiteral("<b>Applied %1</b>: predicted %2 batches/s")
                       .arg(text(a->advice.change.text()).toHtmlEscaped(), rate(a->advice.predicted_batches_per_s));
    // Final at 5 s after the change; cut short by another change or the run's end, it says so.
    const bool cut_short = a->finished && a->segment_s * 1e9 < static_cast<double>(LimitsModel::kMeasured) - 1e6;
    if (!a->started) line += QStringLiteral(", waiting for the change to take effect");
    else if (a->measured_batches_per_s)
        line += QStringLiteral(", measured %1 %2 %3 s%4")
                    .arg(rate(*a->measured_batches_per_s), cut_short ? QStringLiteral("over") : QStringLiteral("after"))
                    .arg(a->segment_s, 0, 'f', 0)
                    .arg(cut_short ? QStringLiteral(" (until the next change)") : QString());
    else if (a->finished) line += QStringLiteral(", too short to measure (the next change or the run's end came within 2 s)");
    else line += QStringLiteral(", measuring… (the first second is left out, as in the prediction)");
    applied_->setText(line);
}

void LimitsPanel::clear_suggestions() {
    for (Row& row : rows_) delete row.box;
    rows_.clear();
    note_.clear();
}

void LimitsPanel::show_suggestions(const std::vector<Advice>& advice, const std::string& device, bool can_apply) {
    clear_suggestions();
    const bool recorded = model_.recorded();
    const QString bound_by = text(std::string(describe(shown_for_.value_or(model_.bottleneck().resource))));
    if (advice.empty()) {
        note_ = recorded ? QStringLiteral("The recording holds no suggestions (recorded with --no-advice, or none "
                                         "predicted to gain 5 % or more).")
                         : QStringLiteral("No change for %1 is predicted to gain 5 % or more on %2.").arg(bound_by, text(device));
        show_state();
        return;
    }
    note_ = recorded ? QStringLiteral("Predictions, not measurements: %1 s emulated runs on %2, as recorded.")
                           .arg(AdviceOptions{}.seconds, 0, 'f', 0)
                           .arg(text(device))
                     : QStringLiteral("For %1. Predictions, not measurements: %2 s emulated runs on %3.")
                           .arg(bound_by)
                           .arg(AdviceOptions{}.seconds, 0, 'f', 0)
                           .arg(text(device));
    const QString apply_label = model_.running() ? QStringLiteral("Apply") : QStringLiteral("Apply and start");
    for (std::size_t i = 0; i < advice.size(); ++i) {
        const Advice& a = advice[i];
        auto* box = new QFrame;
        box->setObjectName(QStringLiteral("suggestion"));
        box->setStyleSheet(QStringLiteral("QFrame#suggestion { background: white; border: 1px solid #D8DDE3; border-radius: 5px; }"));
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(8, 4, 6, 4);
        auto* label = wrapped_label(9);
        label->setText(QStringLiteral("<b>%1</b><br>predicted %2 batches/s (as run: %3 predicted)<br><span style='color:#5A626C'>%4</span>")
                           .arg(text(a.change.text()).toHtmlEscaped(), rate(a.predicted_batches_per_s),
                                rate(a.baseline_batches_per_s), text(a.change.why).toHtmlEscaped()));
        row->addWidget(label, 1);
        QPushButton* button = nullptr;
        if (can_apply) {
            button = new QPushButton(apply_label);
            button->setObjectName(QStringLiteral("apply-%1").arg(i));
            button->setToolTip(model_.running() ? QStringLiteral("Set %1 on the running configuration").arg(text(a.change.text()))
                                                : QStringLiteral("Set %1 and start a run").arg(text(a.change.text())));
            connect(button, &QPushButton::clicked, this, [this, i] { apply(i); });
            row->addWidget(button, 0, Qt::AlignTop);
        }
        suggestions_->addWidget(box);
        rows_.push_back({a, box, label, button});
    }
    show_state();
}

void LimitsPanel::apply(std::size_t row) {
    const Advice advice = rows_.at(row).advice;
    model_.applied(advice);
    show_applied();
    emit applyRequested(advice.change);
}

void LimitsPanel::prediction_done() {
    if (predicting_) predicted_[*predicting_] = predictor_.result();
    predicting_.reset();
    follow_predictions();
    show_state();
}

QString LimitsPanel::scope_text() const { return scope_->text(); }
QString LimitsPanel::bottleneck_text() const { return sentence_->text(); }
QString LimitsPanel::memory_text() const { return memory_->isVisibleTo(this) ? memory_->text() : QString(); }
bool LimitsPanel::memory_warns() const { return model_.memory().warn(); }
QString LimitsPanel::status_text() const { return status_->text(); }
QString LimitsPanel::suggestion_text(int row) const { return rows_.at(static_cast<std::size_t>(row)).text->text(); }
QPushButton* LimitsPanel::apply_button(int row) const { return rows_.at(static_cast<std::size_t>(row)).apply; }
QString LimitsPanel::applied_text() const { return applied_->isVisibleTo(this) ? applied_->text() : QString(); }

}  // namespace pinscope::ui
