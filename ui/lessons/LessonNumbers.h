// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The numbers a lesson step names (its highlight's figures), large, over the run's last second:
// what presenter mode shows in place of the full numbers panel.
#include <QWidget>

#include <string>
#include <vector>

#include "engine/runner/RunFrame.h"
#include "ui/adapter/FrameView.h"

class QLabel;
class QHBoxLayout;

namespace pinscope::ui {

class LessonNumbers : public QWidget, public FrameView {
    Q_OBJECT

public:
    static constexpr TimeNs kPeriod = 250'000'000;

    explicit LessonNumbers(QWidget* parent = nullptr);
    // The figures to show, by name (LessonFigures.h); unknown names are left out.
    void set_figures(const std::vector<std::string>& names);
    void take(const RunFrame& frame) override;
    // The value shown for a figure, by name (tests).
    QString value_of(const std::string& name) const;

private:
    struct Tile {
        std::string name;
        QLabel* value;
    };
    void show_values(const RunFrame& frame);

    QHBoxLayout* layout_;
    std::vector<Tile> tiles_;
    TimeNs shown_at_ = 0;
};

}  // namespace pinscope::ui
