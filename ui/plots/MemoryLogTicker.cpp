// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/MemoryLogTicker.h"

#include <cmath>

#include "ui/plots/ByteFormat.h"

namespace pinscope::ui {

MemoryLogTicker::MemoryLogTicker() {
    setLogBase(4);
    // As many ticks as the base gives: the base alone sets the spacing (fit), QCustomPlot does not
    // coarsen it further.
    setTickCount(64);
}

bool MemoryLogTicker::fit(const QCPRange& range, double axis_px, double min_spacing_px) {
    if (!(range.lower > 0 && range.upper > range.lower && axis_px > 0)) return false;
    const double span = std::log(range.upper / range.lower);
    // QCustomPlot falls back to linear ticks below 1.6 powers of the base in the range.
    constexpr double kLeastPowers = 1.6;
    double base = 4;
    for (const double candidate : {4.0, 16.0, 64.0, 256.0}) {
        if (span / std::log(candidate) < kLeastPowers) break;
        base = candidate;
        if (axis_px * std::log(candidate) / span >= min_spacing_px) break;
    }
    if (base == logBase()) return false;
    setLogBase(base);
    return true;
}

QString MemoryLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) { return memory_text(tick); }

}  // namespace pinscope::ui
