// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The plots under the timeline: in one row where the window is wide enough for them to stay
// readable, in two rows of two where it is not.
#include <QWidget>

#include <vector>

class QGridLayout;

namespace pinscope::ui {

class PlotGrid : public QWidget {
    Q_OBJECT

public:
    static constexpr int kOneRowWidth = 1400;  // each plot keeps at least ~350 px

    explicit PlotGrid(std::vector<QWidget*> plots, QWidget* parent = nullptr);
    int columns() const { return columns_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int columns);

    std::vector<QWidget*> plots_;
    QGridLayout* grid_;
    int columns_ = 0;
};

}  // namespace pinscope::ui
