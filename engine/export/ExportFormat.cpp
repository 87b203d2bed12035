// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/ExportFormat.h"

#include <algorithm>
#include <tuple>

namespace pinscope {

double relative_us(TimeNs time, TimeNs origin) {
    return static_cast<double>(time - origin) / 1e3;
}

double relative_s(TimeNs time, TimeNs origin) {
    return static_cast<double>(time - origin) / 1e9;
}

std::string format_time_us(TimeNs time, TimeNs origin) {
    return format_fixed(relative_us(time, origin), 3);
}

std::string format_time_s(TimeNs time, TimeNs origin) {
    return format_fixed(relative_s(time, origin), 6);
}

std::optional<double> span_gb_per_s(const Span& span) {
    if (span.bytes == 0 || span.duration() <= 0) return std::nullopt;
    // bytes per nanosecond is GB/s.
    return static_cast<double>(span.bytes) / static_cast<double>(span.duration());
}

std::string lane_kind_token(LaneKind kind) {
    std::string token(to_string(kind));
    std::replace(token.begin(), token.end(), ' ', '_');
    return token;
}

bool lane_less(Lane a, Lane b) {
    return std::tuple(a.kind, a.index) < std::tuple(b.kind, b.index);
}

bool span_export_less(const Span& a, const Span& b) {
    if (a.start != b.start) return a.start < b.start;
    return lane_less(a.lane, b.lane);
}

}  // namespace pinscope
