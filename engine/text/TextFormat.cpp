// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"

#include <time.h>

#include <array>
#include <ctime>
#include <charconv>
#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

namespace pinscope {

std::string format_utc_minute(std::chrono::system_clock::time_point when) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::array<char, 32> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%Y-%m-%d %H:%M UTC", &utc);
    return buffer.data();
}

std::string format_fixed(double value, int decimals) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, decimals);
    // Only values beyond 1e60 overflow the buffer; fall back to scientific notation for those.
    if (result.ec != std::errc{}) return format_shortest(value);
    return {buffer.data(), result.ptr};
}

std::string format_signed_percent(double percent, int decimals) {
    return (percent >= 0 ? "+" : "") + format_fixed(percent, decimals) + " %";
}

std::string format_shortest(double value) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return {buffer.data(), result.ptr};
}

std::string format_list(const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return text;
}

std::string format_size(std::uint64_t bytes) {
    if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
    if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
    if (bytes >= kKiB && bytes < kMiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::string format_size_rounded(std::uint64_t bytes) {
    const auto [unit, name] = bytes >= kGiB ? std::pair{kGiB, "GiB"} : bytes >= kMiB ? std::pair{kMiB, "MiB"} : std::pair{kKiB, "KiB"};
    return format_shortest(std::round(static_cast<double>(bytes) / static_cast<double>(unit) * 10) / 10) + " " + name;
}

std::string json_text(const nlohmann::json& value, int indent) {
    return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace pinscope
