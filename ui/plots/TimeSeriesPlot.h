// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The common frame of the plots under the timeline: a title, a legend, seconds since the run's
// start on the x axis, bounded data per line, markers as vertical lines, and the same live / frozen
// behaviour as the timeline (live: follows "now"; frozen: pans and zooms).
#include <vector>

#include <qcustomplot.h>

#include "engine/runner/RunFrame.h"
#include "engine/trace/Trace.h"
#include "ui/adapter/FrameView.h"
#include "ui/plots/LiveTimeAxis.h"

namespace pinscope::ui {

class TimeSeriesPlot : public QCustomPlot, public FrameView {
    Q_OBJECT

public:
    static constexpr int kMaxPoints = 200'000;  // per line; older points go

    TimeSeriesPlot(const QString& title, QWidget* parent = nullptr);

    // A frame of the run shown: its markers and, through take_values, this plot's lines (its first:
    // start afresh).
    void take(const RunFrame& frame) override;
    virtual void reset(TimeNs origin);
    void add_markers(const std::vector<Marker>& markers);
    void refresh(double now_s);
    void set_frozen(bool frozen);
    void set_live_window(double seconds) { time_.set_window(seconds); }
    QString title() const { return title_; }
    // Points of every line together (tests: a run fills the plot).
    int point_count() const;
    // The least distance between two value-axis tick labels (their centres), in pixels.
    static double min_tick_spacing(const QCPAxis* axis);

protected:
    virtual void take_values(const RunFrame& frame) = 0;
    void resizeEvent(QResizeEvent* event) override;
    QCPGraph* add_line(const QString& name, const QColor& color, QCPAxis* value_axis = nullptr,
                       Qt::PenStyle style = Qt::SolidLine, double width = 1.8);
    void append(QCPGraph* graph, double t, double value);
    // Called before each replot: set the value axes for the visible data.
    virtual void fit_value_axes();
    void fit_axis_to(QCPAxis* axis, double minimum_top, double headroom = 1.15);
    TimeNs origin() const { return time_.origin(); }
    double seconds_of(TimeNs time) const { return time_.seconds_of(time); }

private:
    void space_value_ticks();

    QString title_;
    LiveTimeAxis time_{*this, 20, 2};
    std::vector<QCPItemStraightLine*> markers_;
};

}  // namespace pinscope::ui
