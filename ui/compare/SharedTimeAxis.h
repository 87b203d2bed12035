// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One stretch of time shown by several plots' time axes: panning or zooming any of them moves them
// all. Each axis has an offset: an axis at offset d shows [lower + d, upper + d] of the shared range,
// so run B's axes, at the offset that lines B up with A, show the same moments of B's run.
#include <QObject>

#include <vector>

#include <qcustomplot.h>

namespace pinscope::ui {

class SharedTimeAxis : public QObject {
    Q_OBJECT

public:
    explicit SharedTimeAxis(QObject* parent = nullptr) : QObject(parent) {}

    // The axis follows the shared range from now on, at `offset_s`; its plot is replotted on each move.
    void add(QCPAxis* axis, double offset_s = 0);
    // Moves the axis (and whatever it draws) to a new offset; the shared range stays.
    void set_offset(QCPAxis* axis, double offset_s);
    double offset(const QCPAxis* axis) const;
    void set_range(const QCPRange& range);
    QCPRange range() const { return range_; }

signals:
    // The shared range moved; `by_user`: a drag or zoom on one of the plots, not set_range.
    void rangeChanged(const QCPRange& range, bool by_user);

private:
    struct Linked {
        QCPAxis* axis;
        double offset_s;
    };
    void moved(QCPAxis* axis, const QCPRange& range);
    void apply(const QCPAxis* except);

    std::vector<Linked> axes_;
    QCPRange range_{0, 1};
    bool applying_ = false;
};

}  // namespace pinscope::ui
