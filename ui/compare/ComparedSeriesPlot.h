// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One quantity of two runs over time, as the plots under the timeline draw it: run A's line and run
// B's, each named in the legend. B's line is on a time axis of its own (xAxis2, hidden), which the
// comparison shifts to line B up with A without touching its points.
#include <functional>
#include <utility>
#include <vector>

#include "engine/compare/FrameComparison.h"
#include "ui/plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class ComparedSeriesPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    // A frame's points of the quantity: (seconds since the run's start, value).
    using Points = std::vector<std::pair<double, double>>;
    using Values = std::function<void(const RunFrame& frame, Points& points)>;

    // `minimum_top`: the value axis shows at least 0 to this.
    ComparedSeriesPlot(const QString& title, const QString& unit, Values values, double minimum_top, QWidget* parent = nullptr);

    // Each run's frames, in order (its first starts its line afresh). As a FrameView the plot
    // itself takes run A's.
    FrameView& input(RunSide side);
    void take(const RunFrame& frame) override;
    // The legend's names of the two runs.
    void set_run_names(const QString& a, const QString& b);
    // The time axis each run's line is drawn on.
    QCPAxis* time_axis(RunSide side) const;
    QCPGraph* line(RunSide side) const;

    // The comparison's plots, new, for a layout to own.
    static ComparedSeriesPlot* batches_per_s();
    static ComparedSeriesPlot* gpu_busy();
    static ComparedSeriesPlot* pinned_in_use();

protected:
    void take_values(const RunFrame& frame) override;
    void fit_value_axes() override;
    void resizeEvent(QResizeEvent* event) override;

private:
    class Input : public FrameView {
    public:
        Input(ComparedSeriesPlot& plot, RunSide side) : plot_(plot), side_(side) {}
        void take(const RunFrame& frame) override { plot_.take_side(side_, frame); }

    private:
        ComparedSeriesPlot& plot_;
        RunSide side_;
    };
    void take_side(RunSide side, const RunFrame& frame);

    Values values_;
    double minimum_top_;
    QCPGraph* lines_[2];
    Input inputs_[2]{{*this, RunSide::A}, {*this, RunSide::B}};
    Points points_;  // a frame's, reused
};

}  // namespace pinscope::ui
