// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Batch indices in flight (sent to workers, not yet taken by the consumer) against their limit,
// num_workers * prefetch_factor, and the batches ready and waiting for the consumer.
#include "engine/config/LoaderConfig.h"
#include "engine/trace/Counter.h"
#include "ui/plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class InFlightPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    explicit InFlightPlot(QWidget* parent = nullptr);
    void add_counters(const std::vector<CounterSample>& samples);
    void add_limit(double t, const LoaderConfig& config);

protected:
    void take_values(const RunFrame& frame) override;
    void fit_value_axes() override;

private:
    QCPGraph* in_flight_;
    QCPGraph* ready_;
    QCPGraph* limit_;
};

}  // namespace pinscope::ui
