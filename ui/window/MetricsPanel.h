// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The numbers at a glance, over the engine's last second (large) and the whole run (small):
// batches/s, H2D GB/s, GPU busy, copy hidden, GPU starved (split: on the copy, on the host), the
// consumer's wait and host held, pinned in use / peak / budget.
#include <QWidget>

#include "engine/metrics/Metrics.h"
#include "engine/runner/RunFrame.h"
#include "engine/runner/RunRecord.h"
#include "ui/adapter/FrameView.h"

class QLabel;

namespace pinscope::ui {

class MetricsPanel : public QWidget, public FrameView {
    Q_OBJECT

public:
    static constexpr TimeNs kPeriod = 250'000'000;  // numbers people read: four times a second of the run

    explicit MetricsPanel(QWidget* parent = nullptr);
    // A frame of the run shown: its numbers, at most every kPeriod of the run's time (and at its
    // first and last frames).
    void take(const RunFrame& frame) override;
    void set_window(const Metrics& window);
    void set_summary(const RunSummary& summary);
    void clear();
    // The large value of a tile, by its title (tests).
    QString value_of(const QString& title) const;
    QString detail_of(const QString& title) const;
    QString tooltip_of(const QString& title) const;

private:
    struct Tile {
        QString title;
        QLabel* value;
        QLabel* detail;
    };
    Tile& add_tile(const QString& title, const QString& tip);
    Tile& tile(const QString& title);
    void show_starved_detail();

    std::vector<Tile> tiles_;
    RunSummary summary_;
    Metrics window_;
    TimeNs shown_at_ = 0;
};

}  // namespace pinscope::ui
