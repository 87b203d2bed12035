// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPU busy, copy hidden, GPU starved and consumer wait, in percent over the engine's sliding window:
// whether the GPU works, whether the copies hide behind the kernels, how long the GPU had no batch
// ready, and (thin) how long the consumer, which runs ahead of the GPU, waited for its next batch.
#include "engine/metrics/Metrics.h"
#include "ui/plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class UtilisationPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    explicit UtilisationPlot(QWidget* parent = nullptr);
    void add_metrics(double t, const Metrics& window);

protected:
    void take_values(const RunFrame& frame) override;
    void fit_value_axes() override;

private:
    QCPGraph* gpu_busy_;
    QCPGraph* copy_hidden_;
    QCPGraph* gpu_starved_;
    QCPGraph* consumer_wait_;
};

}  // namespace pinscope::ui
