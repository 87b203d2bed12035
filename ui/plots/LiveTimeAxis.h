// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The time axis of the timeline and of every plot under it: seconds since the run's start. Live,
// it follows "now", showing the last `window` seconds; frozen, it stays where it is and the user
// pans and zooms it. A run younger than its window is shown from zero, either over the whole
// window (the timeline: spans keep their scale) or over at least `shortest` seconds (the plots: a
// young run fills the width instead of a corner of it).
#include <qcustomplot.h>

#include "engine/trace/Span.h"

namespace pinscope::ui {

class LiveTimeAxis {
public:
    // shortest_s <= 0: a young run is shown over the whole window.
    LiveTimeAxis(QCustomPlot& plot, double window_s, double shortest_s = 0);

    // A new run: time zero at `origin`, and the range back to the first window.
    void reset(TimeNs origin);
    TimeNs origin() const { return origin_; }
    double seconds_of(TimeNs time) const { return static_cast<double>(time - origin_) * 1e-9; }

    // Live: the range ending at `now_s`. Frozen: nothing.
    void follow(double now_s);
    void set_frozen(bool frozen);
    bool frozen() const { return frozen_; }
    void set_window(double seconds) { window_s_ = seconds; }
    double window() const { return window_s_; }

private:
    QCustomPlot& plot_;
    TimeNs origin_ = 0;
    double window_s_;
    double shortest_s_;
    bool frozen_ = false;
};

}  // namespace pinscope::ui
