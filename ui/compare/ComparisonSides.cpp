// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/ComparisonSides.h"

namespace pinscope::ui {

QString side_letter(RunSide side) { return side == RunSide::A ? QStringLiteral("A") : QStringLiteral("B"); }

QColor side_color(RunSide side) { return side == RunSide::A ? QColor(0x1F, 0x5F, 0xC8) : QColor(0xE0, 0x6C, 0x1A); }

QPen side_pen(RunSide side, double width) {
    return QPen(side_color(side), width, side == RunSide::A ? Qt::SolidLine : Qt::DashLine);
}

}  // namespace pinscope::ui
