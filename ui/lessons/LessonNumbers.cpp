// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/LessonNumbers.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "engine/lesson/LessonFigures.h"
#include "engine/lesson/LessonRun.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

LessonNumbers::LessonNumbers(QWidget* parent) : QWidget(parent), layout_(new QHBoxLayout(this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(10);
}

void LessonNumbers::set_figures(const std::vector<std::string>& names) {
    while (QLayoutItem* item = layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    tiles_.clear();
    for (const std::string& name : names) {
        const LessonFigure* figure = find_lesson_figure(name);
        if (figure == nullptr) continue;
        auto* frame = new QFrame;
        frame->setObjectName(QStringLiteral("tile"));
        frame->setStyleSheet(QStringLiteral("QFrame#tile { background: white; border: 2px solid #0072B2; border-radius: 8px; }"));
        auto* v = new QVBoxLayout(frame);
        v->setContentsMargins(14, 8, 14, 8);
        v->setSpacing(0);
        auto* heading = new QLabel(QString::fromStdString(figure->label));
        heading->setFont(app_font(11));
        heading->setStyleSheet(QStringLiteral("color: #3A424C;"));
        auto* value = new QLabel(QStringLiteral("–"));
        value->setFont(app_font(22, true));
        value->setStyleSheet(QStringLiteral("color: #000000;"));
        v->addWidget(heading);
        v->addWidget(value);
        layout_->addWidget(frame, 1);
        tiles_.push_back({name, value});
    }
    shown_at_ = 0;
}

void LessonNumbers::take(const RunFrame& frame) {
    if (frame.first) shown_at_ = 0;
    if (!frame.first && !frame.ended && frame.time - shown_at_ < kPeriod) return;
    shown_at_ = frame.time;
    show_values(frame);
}

void LessonNumbers::show_values(const RunFrame& frame) {
    const StepResult result = step_result(frame.summary, frame.window, frame.window_bottleneck);
    for (Tile& tile : tiles_) {
        const LessonFigure* figure = find_lesson_figure(tile.name);
        const auto value = figure ? figure_value(*figure, result) : std::nullopt;
        tile.value->setText(value ? QString::fromStdString(figure_text(*figure, *value)) : QStringLiteral("–"));
    }
}

QString LessonNumbers::value_of(const std::string& name) const {
    for (const Tile& tile : tiles_)
        if (tile.name == name) return tile.value->text();
    return {};
}

}  // namespace pinscope::ui
