// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline's legend, inside the plot (so that it is in every screenshot of the timeline): a
// swatch and a name per stage, and the entry of folded spans (bars of busy share), wrapped onto as many lines
// as the plot's width needs.
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "engine/trace/Span.h"

namespace pinscope::ui {

class StageLegendElement : public QCPLayoutElement {
    Q_OBJECT

public:
    explicit StageLegendElement(QCustomPlot* plot);

    // The stage whose entry is under `pos` (plot pixels); nullopt for the folded entry or none.
    std::optional<Stage> stage_at(const QPointF& pos) const;
    bool folded_entry_at(const QPointF& pos) const;
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

protected:
    void draw(QCPPainter* painter) override;

private:
    struct Entry {
        std::optional<Stage> stage;  // none: the folded entry
        QString text;
        QRectF box;  // laid out for the current width
    };
    std::vector<Entry> layout(double left, double top, double width) const;
    int lines_for(double width) const;

    std::vector<Entry> entries_;
    std::vector<Entry> laid_out_;  // as the last draw placed them
};

}  // namespace pinscope::ui
