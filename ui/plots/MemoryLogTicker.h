// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Log-axis ticks at powers of 4 (or 16, 64, 256) bytes, labelled in binary units: "4 KiB", "1 MiB".
#include <qcustomplot.h>

namespace pinscope::ui {

class MemoryLogTicker : public QCPAxisTickerLog {
public:
    MemoryLogTicker();
    // Ticks every power of 4 where they are at least `min_spacing_px` apart along `axis_px` pixels
    // showing `range`, else every power of 16, 64 or 256 (the first that is). True when it changed.
    bool fit(const QCPRange& range, double axis_px, double min_spacing_px);

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override;
};

}  // namespace pinscope::ui
