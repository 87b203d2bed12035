// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison's numbers: what differs in the two runs' configuration, every summary figure of A
// and B with B - A and B / A, and each stage's median and p95 span duration, written as
// pinscope-cli compare writes them.
#include <QWidget>

#include "engine/compare/RunComparison.h"

class QLabel;
class QTableWidget;

namespace pinscope::ui {

class ComparisonTable : public QWidget {
    Q_OBJECT

public:
    enum Column { Figure, A, B, Delta, Ratio };

    explicit ComparisonTable(QWidget* parent = nullptr);
    // `stages_in`: both runs are in, so the stages' figures are final (until then they are not shown).
    void show_comparison(const RunComparison& comparison, bool stages_in);

    // What a cell shows: a figure's row by its name ("batches/s"), or a stage's by its label.
    QString figure_cell(const QString& figure, Column column) const;
    QString stage_cell(const QString& stage, int column) const;
    QString differences_text() const;
    QTableWidget& figures() const { return *figures_; }

private:
    QLabel* differences_;
    QTableWidget* figures_;
    QLabel* stages_note_;
    QTableWidget* stages_;
};

}  // namespace pinscope::ui
