// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Batches per second (left axis) and host-to-device GB/s (right axis) over the engine's sliding
// window.
#include "engine/metrics/Metrics.h"
#include "ui/plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class ThroughputPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    explicit ThroughputPlot(QWidget* parent = nullptr);
    void add_metrics(double t, const Metrics& window);

protected:
    void take_values(const RunFrame& frame) override;
    void fit_value_axes() override;

private:
    QCPGraph* batches_;
    QCPGraph* gb_per_s_;
};

}  // namespace pinscope::ui
