// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/ExportFormat.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace pinscope {

double relative_us(TimeNs time, TimeNs origin) {
    return static_cast<double>(time - origin) / 1e3;
}

double relative_s(TimeNs time, TimeNs origin) {
    return static_cast<double>(time - origin) / 1e9;
}

std::string format_fixed(double value, int decimals) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, decimals);
    // Only values beyond 1e60 overflow the buffer; fall back to scientific notation for those.
    if (result.ec != std::errc{}) return format_shortest(value);
    return {buffer.data(), result.ptr};
}

std::string format_shortest(double value) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return {buffer.data(), result.ptr};
}

std::string format_time_us(TimeNs time, TimeNs origin) {
    return format_fixed(relative_us(time, origin), 3);
}

std::string format_time_s(TimeNs time, TimeNs origin) {
    return format_fixed(relative_s(time, origin), 6);
}

std::string format_size(std::uint64_t bytes) {
    constexpr std::uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10;
    if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
    if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
    if (bytes >= kKiB && bytes < kMiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::string format_size_rounded(std::uint64_t bytes) {
    constexpr std::uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10;
    const auto [unit, name] = bytes >= kGiB ? std::pair{kGiB, "GiB"} : bytes >= kMiB ? std::pair{kMiB, "MiB"} : std::pair{kKiB, "KiB"};
    return format_shortest(std::round(static_cast<double>(bytes) / static_cast<double>(unit) * 10) / 10) + " " + name;
}

std::string json_text(const nlohmann::json& value, int indent) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
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
