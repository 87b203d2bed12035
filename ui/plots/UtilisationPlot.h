#pragma once
// GPU busy, copy hidden and data wait, in percent over the engine's sliding window: whether the
// GPU works, whether the copies hide behind the kernels, and how long the GPU starves for data.
#include "metrics/Metrics.h"
#include "plots/TimeSeriesPlot.h"

namespace pinscope::ui {

class UtilisationPlot : public TimeSeriesPlot {
    Q_OBJECT

public:
    explicit UtilisationPlot(QWidget* parent = nullptr);
    void add_metrics(double t, const Metrics& window);

protected:
    void fit_value_axes() override;

private:
    QCPGraph* gpu_busy_;
    QCPGraph* copy_hidden_;
    QCPGraph* data_wait_;
};

}  // namespace pinscope::ui
