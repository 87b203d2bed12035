// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/ByteFormat.h"

#include <cmath>

namespace pinscope::ui {

QString memory_text(double bytes, int decimals) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double value = bytes;
    while (std::abs(value) >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    // Whole numbers need no decimals: "64 MiB", not "64.0 MiB".
    const int places = (unit == 0 || std::abs(value - std::round(value)) < 0.05) ? 0 : decimals;
    return QStringLiteral("%1 %2").arg(value, 0, 'f', places).arg(QString::fromLatin1(units[unit]));
}

}  // namespace pinscope::ui
