// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the comparison tells its two runs apart, everywhere it shows them: A blue and solid, B
// orange and dashed (distinguishable in greyscale and with the common colour-vision deficiencies).
#include <QColor>
#include <QPen>
#include <QString>

#include "engine/compare/FrameComparison.h"

namespace pinscope::ui {

inline constexpr RunSide kSides[] = {RunSide::A, RunSide::B};

inline int side_index(RunSide side) { return side == RunSide::A ? 0 : 1; }
QString side_letter(RunSide side);  // "A", "B"
QColor side_color(RunSide side);
QPen side_pen(RunSide side, double width = 2);

}  // namespace pinscope::ui
