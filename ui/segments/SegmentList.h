// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The segments of the run shown (live or recorded): one row per stretch under one configuration,
// with its time, what changed as it began and its batches/s. Choosing a row asks for its stretch
// of the timeline (segmentChosen); the window brings it into view.
#include <QTreeWidget>

#include <vector>

#include "ui/adapter/FrameView.h"

namespace pinscope::ui {

class SegmentList : public QTreeWidget, public FrameView {
    Q_OBJECT

public:
    explicit SegmentList(QWidget* parent = nullptr);

    void take(const RunFrame& frame) override;
    // Rows shown: one per segment of the run so far.
    int count() const { return topLevelItemCount(); }
    // Chooses row `index` (from 0), as a click does.
    void choose(int index);

signals:
    // Seconds from the run's start.
    void segmentChosen(double from_s, double to_s);

private:
    void show_segments(const std::vector<RunSegment>& segments, TimeNs origin);

    TimeNs origin_ = 0;
    std::vector<std::pair<double, double>> ranges_;  // each row's, in seconds
};

}  // namespace pinscope::ui
