// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/PlotGrid.h"

#include <QGridLayout>
#include <QResizeEvent>

namespace pinscope::ui {

PlotGrid::PlotGrid(std::vector<QWidget*> plots, QWidget* parent)
    : QWidget(parent), plots_(std::move(plots)), grid_(new QGridLayout(this)) {
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(6);
    arrange(2);
}

void PlotGrid::arrange(int columns) {
    if (columns == columns_) return;
    columns_ = columns;
    for (QWidget* plot : plots_) grid_->removeWidget(plot);
    for (int c = 0; c < grid_->columnCount(); ++c) grid_->setColumnStretch(c, 0);
    for (std::size_t i = 0; i < plots_.size(); ++i)
        grid_->addWidget(plots_[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    for (int c = 0; c < columns; ++c) grid_->setColumnStretch(c, 1);
}

void PlotGrid::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange(event->size().width() >= kOneRowWidth ? static_cast<int>(plots_.size()) : 2);
}

}  // namespace pinscope::ui
