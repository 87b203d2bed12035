// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One colour per stage, the same in the timeline, its legend and every export. Based on Tableau 10
// (readable on white, distinguishable with the common colour-vision deficiencies): GPU work green,
// copies purple, page-locking orange, the host held in a pageable copy red, waiting grey.
#include <QColor>
#include <QString>

#include "engine/trace/Span.h"
#include "engine/trace/Trace.h"

namespace pinscope::ui {

QColor stage_color(Stage stage);
// Presenter mode's stage colours: the Okabe-Ito palette (Okabe and Ito, "Color Universal Design"),
// told apart with every common colour-vision deficiency and on a projector. GUI thread only.
void set_presenter_palette(bool on);
bool presenter_palette();
QString stage_label(Stage stage);        // "load", "H2D copy", "compute", ...
QString stage_description(Stage stage);  // one line for the legend's tooltip

// "worker 0", "pin thread", "consumer", "H2D stream", "compute stream"
QString lane_label(Lane lane);
// A lane kind's colour where lanes, not stages, are marked (the NUMA view): the colour of its main
// stage (workers load, the pin thread pins, the consumer and the copy stream copy to the device).
QColor lane_color(LaneKind kind);
// A marker's line and label, in the timeline and every plot: reconfigurations blue, warnings
// orange, errors red.
QColor marker_color(MarkerKind kind);

}  // namespace pinscope::ui
