// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two runs side by side (File > Compare with..., pinscope --compare A B): their timelines one above
// the other on one time axis (panning or zooming either moves both), lined up at their starts or at
// the start of a chosen batch; the plots with A's and B's lines overlaid; the configuration that
// differs and every figure with its difference and ratio (ComparisonTable). Each run comes from its
// own run source through its own RunFeed, frame by frame, into the same views a single run uses.
#include <QElapsedTimer>
#include <QWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/compare/FrameComparison.h"
#include "ui/adapter/RunFeed.h"
#include "ui/compare/ComparisonSides.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QCPRange;

namespace pinscope::ui {

class ComparedSeriesPlot;
class ComparisonTable;
class DeviceBanner;
class SharedTimeAxis;
class TimelinePlot;

class ComparisonView : public QWidget {
    Q_OBJECT

public:
    explicit ComparisonView(FeedOptions feed = {}, QWidget* parent = nullptr);
    ~ComparisonView() override;

    // Shows the two runs, from their first frames.
    void show_runs(std::shared_ptr<RunSource> a, std::shared_ptr<RunSource> b);
    // Every frame of both runs is in: the figures and the stages are final.
    bool runs_in() const { return model_.both_ended(); }

    // Lines B up with A at their starts.
    void align_at_start();
    // Lines B up with A where `batch` began in each; false, and nothing moved, when either run has
    // no such batch (yet).
    bool align_at_batch(std::uint64_t batch);
    std::optional<std::uint64_t> aligned_batch() const { return aligned_batch_; }
    // Seconds B's time axes are ahead of A's (0 lined up at the starts).
    double b_shift_s() const { return shift_s_; }
    // Both runs whole in view.
    void show_whole_runs();

    TimelinePlot& timeline(RunSide side) const { return *timelines_[side_index(side)]; }
    DeviceBanner& banner(RunSide side) const { return *banners_[side_index(side)]; }
    const std::vector<ComparedSeriesPlot*>& plots() const { return plots_; }
    ComparisonTable& table() const { return *table_; }
    SharedTimeAxis& time_axis() const { return *axis_; }
    RunFeed& feed(RunSide side) const { return *feeds_[side_index(side)]; }
    const FrameComparison& model() const { return model_; }

signals:
    void closeRequested();
    // Both runs are in and drawn whole.
    void runsIn();

private:
    QWidget* build_side(RunSide side);
    QWidget* build_controls();
    void take(RunSide side, const RunFrame& frame);
    void refresh();
    void set_shift(double shift_s);
    void alignment_chosen();
    void batch_selected(RunSide side, std::optional<std::uint64_t> batch);
    QCPRange whole_range() const;

    std::array<std::unique_ptr<RunFeed>, 2> feeds_;
    FrameComparison model_;
    std::array<TimelinePlot*, 2> timelines_{};
    std::array<DeviceBanner*, 2> banners_{};
    std::array<TimeNs, 2> origins_{};
    std::array<QString, 2> names_{QStringLiteral("A"), QStringLiteral("B")};
    std::array<double, 2> lengths_s_{};  // each run's time so far
    std::vector<ComparedSeriesPlot*> plots_;
    ComparisonTable* table_ = nullptr;
    SharedTimeAxis* axis_ = nullptr;
    QComboBox* align_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QLabel* align_note_ = nullptr;
    double shift_s_ = 0;
    std::optional<std::uint64_t> aligned_batch_;
    bool following_ = true;  // the view grows with the runs until the user pans or zooms
    bool taking_ = false;    // views are taking a frame: axis moves are theirs, not the user's
    bool selecting_ = false;
    bool ended_ = false;
    QElapsedTimer since_refresh_;
};

}  // namespace pinscope::ui
