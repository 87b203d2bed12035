// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each resource's utilisation as a compact bar list: its name, a bar to 100 %, the percentage and
// the batches/s it allows at 100 %. The bounding resource's row says "bound" in words as well as
// in colour.
#include <QWidget>

#include <vector>

#include "engine/analysis/Bottleneck.h"

namespace pinscope::ui {

class UsageBars : public QWidget {
    Q_OBJECT

public:
    explicit UsageBars(QWidget* parent = nullptr);
    void show_usage(const Bottleneck& bottleneck);
    int row_count() const { return static_cast<int>(rows_.size()); }
    // A row as text (tests, tooltips): "pin thread 99 % · at most 285/s · bound".
    QString row_text(int row) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Row {
        ResourceUse use;
        bool bound = false;
    };
    std::vector<Row> rows_;
};

}  // namespace pinscope::ui
