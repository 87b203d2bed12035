// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "What limits this run": the bounding resource's sentence with its arithmetic, each resource's
// utilisation, the machine's memory against what the run may still take (a warning when pinning
// would push it into swap), and "What to try": suggestions with the batches/s short emulated runs
// predict for them, each with Apply; after Apply, the measured batches/s beside the prediction.
// Live from the frames: the last window while the run goes, the whole run once it ended; a
// recorded run shows its recorded suggestions, applied only by running it again here.
#include <QWidget>

#include <map>
#include <optional>

#include "engine/runner/RunFrame.h"
#include "ui/adapter/FrameView.h"
#include "ui/limits/AdvicePredictor.h"
#include "ui/limits/LimitsModel.h"

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace pinscope::ui {

class UsageBars;

class LimitsPanel : public QWidget, public FrameView {
    Q_OBJECT

public:
    static constexpr TimeNs kPeriod = 250'000'000;  // texts follow the run four times a second

    explicit LimitsPanel(AdvicePredictor::Predict predict = {}, QWidget* parent = nullptr);
    void take(const RunFrame& frame) override;

    // What it shows (tests).
    QString scope_text() const;
    QString bottleneck_text() const;
    QString memory_text() const;
    bool memory_warns() const;
    QString status_text() const;
    int suggestion_count() const { return static_cast<int>(rows_.size()); }
    QString suggestion_text(int row) const;
    QPushButton* apply_button(int row) const;  // null for a recorded run's suggestions
    QString applied_text() const;
    const UsageBars& usage() const { return *bars_; }
    AdvicePredictor& predictor() { return predictor_; }

signals:
    // Apply `change` to the configuration (and start a run with it when none is going).
    void applyRequested(const pinscope::ConfigChange& change);
    void runAgainRequested();

private:
    struct Row {
        Advice advice;
        QWidget* box;
        QLabel* text;
        QPushButton* apply;
    };
    void show_state();
    void show_applied();
    void show_suggestions(const std::vector<Advice>& advice, const std::string& device, bool can_apply);
    void clear_suggestions();
    void apply(std::size_t row);
    void prediction_done();
    // Predictions for the settled bottleneck: shown from those made for this configuration, or asked for.
    void follow_predictions();

    LimitsModel model_;
    AdvicePredictor predictor_;
    // This configuration's predictions by the bottleneck they were made for (a run whose bottleneck
    // moves between two resources gets each predicted once); forgotten when the configuration changes.
    std::map<Resource, Prediction> predicted_;
    std::optional<Resource> predicting_;     // what the predictor is working on
    std::optional<Resource> shown_for_;      // whose predictions the rows show
    TimeNs shown_at_ = 0;
    QLabel* scope_;
    QLabel* sentence_;
    UsageBars* bars_;
    QLabel* memory_;
    QLabel* status_;
    QVBoxLayout* suggestions_;
    QLabel* applied_;
    QPushButton* run_again_;
    std::vector<Row> rows_;
    QString note_;  // what the last predictions said when not a list (none, an error), or where they come from
};

}  // namespace pinscope::ui
