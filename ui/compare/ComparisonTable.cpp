// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/ComparisonTable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/text/TextFormat.h"
#include "ui/compare/ComparisonSides.h"
#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"

namespace pinscope::ui {
namespace {

QTableWidget* make_table(const QStringList& headers) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(QFontMetrics(app_font(9)).height() + 6);
    table->setFont(app_font(9));
    table->horizontalHeader()->setFont(app_font(9, true));
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus);
    table->setAlternatingRowColors(true);
    table->setShowGrid(false);
    for (const RunSide side : kSides) {
        // The A and B columns in the runs' colours, as their lines and timelines.
        const int column = side == RunSide::A ? 1 : 2;
        if (QTableWidgetItem* header = table->horizontalHeaderItem(column)) header->setForeground(side_color(side));
    }
    return table;
}

QTableWidgetItem* cell(const std::string& text, bool number = true) {
    auto* item = new QTableWidgetItem(QString::fromStdString(text));
    item->setTextAlignment(number ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    return item;
}

QLabel* heading(const QString& text) {
    auto* label = new QLabel(text);
    label->setFont(app_font(10, true));
    return label;
}

void fit_height(QTableWidget* table) {
    const int rows = table->rowCount();
    table->setFixedHeight(table->horizontalHeader()->sizeHint().height() + rows * table->verticalHeader()->defaultSectionSize() +
                          2 * table->frameWidth());
}

QString find_cell(const QTableWidget& table, const QString& row_name, int column) {
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0) && table.item(row, 0)->text().trimmed() == row_name && table.item(row, column))
            return table.item(row, column)->text();
    return {};
}

}  // namespace

ComparisonTable::ComparisonTable(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(heading(QStringLiteral("Configuration, A → B")));
    differences_ = new QLabel;
    differences_->setWordWrap(true);
    differences_->setFont(app_font(9));
    differences_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(differences_);
    layout->addSpacing(6);
    layout->addWidget(heading(QStringLiteral("The whole runs")));
    figures_ = make_table({QStringLiteral("figure"), QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("B − A"),
                           QStringLiteral("B / A")});
    layout->addWidget(figures_);
    layout->addSpacing(6);
    layout->addWidget(heading(QStringLiteral("Span durations by stage (µs)")));
    stages_note_ = new QLabel;
    stages_note_->setFont(app_font(9));
    stages_note_->setWordWrap(true);
    layout->addWidget(stages_note_);
    stages_ = make_table({QStringLiteral("stage"), QStringLiteral("A median"), QStringLiteral("A p95"),
                          QStringLiteral("B median"), QStringLiteral("B p95"), QStringLiteral("B / A")});
    stages_->horizontalHeaderItem(3)->setForeground(side_color(RunSide::B));
    stages_->horizontalHeaderItem(4)->setForeground(side_color(RunSide::B));
    stages_->horizontalHeaderItem(2)->setForeground(side_color(RunSide::A));
    layout->addWidget(stages_);
    layout->addStretch(1);
    show_comparison({}, false);
}

void ComparisonTable::show_comparison(const RunComparison& comparison, bool stages_in) {
    QStringList lines;
    for (const std::string& line : comparison.differences)
        lines << QString::fromStdString(line).replace(QStringLiteral(" -> "), QStringLiteral(" → ")).toHtmlEscaped();
    differences_->setText(comparison.figures.empty() ? QStringLiteral("…")
                          : lines.isEmpty()          ? QStringLiteral("the same")
                                                     : lines.join(QStringLiteral("<br>")));

    figures_->setRowCount(static_cast<int>(comparison.figures.size()));
    for (int row = 0; row < figures_->rowCount(); ++row) {
        const FigureComparison& f = comparison.figures[static_cast<std::size_t>(row)];
        figures_->setItem(row, Figure, cell(f.name, false));
        figures_->setItem(row, A, cell(figure_text(f, f.a)));
        figures_->setItem(row, B, cell(figure_text(f, f.b)));
        figures_->setItem(row, Delta, cell(figure_delta_text(f)));
        figures_->setItem(row, Ratio, cell(figure_ratio_text(f)));
    }
    fit_height(figures_);

    stages_note_->setText(stages_in ? QString() : QStringLiteral("once both runs are in"));
    stages_note_->setVisible(!stages_in);
    stages_->setRowCount(stages_in ? static_cast<int>(comparison.stages.size()) : 0);
    for (int row = 0; row < stages_->rowCount(); ++row) {
        const StageComparison& s = comparison.stages[static_cast<std::size_t>(row)];
        const auto value = [](const StageDurations& d, double us) { return d.count > 0 ? format_fixed(us, 1) : std::string("-"); };
        auto* name = new QTableWidgetItem(stage_label(s.stage));
        name->setToolTip(QStringLiteral("%1 spans in A, %2 in B").arg(s.a.count).arg(s.b.count));
        stages_->setItem(row, 0, name);
        stages_->setItem(row, 1, cell(value(s.a, s.a.median_us)));
        stages_->setItem(row, 2, cell(value(s.a, s.a.p95_us)));
        stages_->setItem(row, 3, cell(value(s.b, s.b.median_us)));
        stages_->setItem(row, 4, cell(value(s.b, s.b.p95_us)));
        stages_->setItem(row, 5, cell(stage_ratio_text(s)));
    }
    fit_height(stages_);
}

QString ComparisonTable::figure_cell(const QString& figure, Column column) const { return find_cell(*figures_, figure, column); }

QString ComparisonTable::stage_cell(const QString& stage, int column) const { return find_cell(*stages_, stage, column); }

QString ComparisonTable::differences_text() const { return differences_->text(); }

}  // namespace pinscope::ui
