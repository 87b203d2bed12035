// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/Units.h"

#include <cmath>
#include <cstdio>

namespace pinscope {
namespace {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

}  // namespace

std::string memory_text(double bytes, int decimals) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double value = bytes;
    while (std::abs(value) >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    // Whole numbers need no decimals: "64 MiB", not "64.0 MiB".
    const int places = (unit == 0 || std::abs(value - std::round(value)) < 0.05) ? 0 : decimals;
    return fixed(value, places) + " " + units[unit];
}

std::string rate_text(double bytes_per_s, int decimals) { return fixed(bytes_per_s / 1e9, decimals) + " GB/s"; }

}  // namespace pinscope
