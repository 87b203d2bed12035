// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Page-locked memory over time: in use by batches, reserved by the pool (cached blocks and
// rounding included), the peak, the budget and RLIMIT_MEMLOCK; beside them the machine's available
// memory and swap in use (when pinning hurts, the one falls and the other rises). On a log axis, because the budget
// is often tens of times the footprint and the memlock limit tens of times below it: a linear
// axis would flatten one of them.
#include "engine/runner/RunRecord.h"
#include "ui/plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class FootprintPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    explicit FootprintPlot(QWidget* parent = nullptr);
    void add_counters(const std::vector<CounterSample>& samples);
    void add_summary(double t, const RunSummary& summary);

protected:
    void take_values(const RunFrame& frame) override;
    void fit_value_axes() override;

private:
    QCPGraph* in_use_;
    QCPGraph* reserved_;
    QCPGraph* peak_;
    QCPGraph* budget_;
    QCPGraph* memlock_;
    QCPGraph* available_;
    QCPGraph* swap_;
};

}  // namespace pinscope::ui
