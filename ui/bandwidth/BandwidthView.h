// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Bandwidth tab: sweeps copy sizes on the chosen device (a real GPU, or the emulated one from
// its profile) for pinned, pageable and write-combined host memory, off the GUI thread, with a
// progress bar; draws the curves against the link's theoretical limit.
#include <QWidget>

#include "ui/bandwidth/BandwidthSweepRunner.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace pinscope::ui {

class BandwidthPlot;

class BandwidthView : public QWidget {
    Q_OBJECT

public:
    explicit BandwidthView(BandwidthSweepFunction sweep = run_bandwidth_sweep, QWidget* parent = nullptr);

    // The options the controls show.
    BandwidthOptions options() const;
    void set_device(const std::string& device);
    // Starts a sweep with these options (the controls follow); false when one is running.
    bool run(const BandwidthOptions& options);
    void cancel();
    bool running() const;

    BandwidthPlot& plot() const { return *plot_; }
    QProgressBar& progress() const { return *progress_; }
    QString status_text() const;

signals:
    void sweepFinished(bool cancelled);
    void sweepFailed(const QString& message);

private:
    void run_clicked();
    void update_buttons();

    BandwidthSweepRunner* runner_;
    BandwidthPlot* plot_;
    QComboBox* device_;
    QComboBox* min_size_;
    QComboBox* max_size_;
    QSpinBox* samples_;
    QCheckBox* h2d_;
    QCheckBox* d2h_;
    QCheckBox* pinned_;
    QCheckBox* pageable_;
    QCheckBox* write_combined_;
    QPushButton* run_;
    QProgressBar* progress_;
    QLabel* status_;
};

}  // namespace pinscope::ui
