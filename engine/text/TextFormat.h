// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Numbers, sizes and JSON as text, the same everywhere (messages, exports, tables). All text is
// locale-independent.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace pinscope {

std::string format_fixed(double value, int decimals);  // "12.500"
std::string format_shortest(double value);             // the shortest text that reads back exactly
// A change in percent with its sign: "+12.5 %", "-3 %", "+0 %" (decimals as format_fixed's).
std::string format_signed_percent(double percent, int decimals);
// Exact: whole GiB or MiB ("1 GiB", "1200 MiB"), whole KiB below 1 MiB ("64 KiB"), otherwise
// bytes ("38535168 bytes").
std::string format_size(std::uint64_t bytes);
// Rounded for people to read, to a tenth of the largest unit it reaches: "36.8 MiB", "2 GiB", "0.5 KiB".
std::string format_size_rounded(std::uint64_t bytes);

// Items as a list in a sentence: "a", "a and b", "a, b and c"; empty for none.
std::string format_list(const std::vector<std::string>& items);
// Sizes in bytes as such a list, each as format_size gives it: "1 MiB, 4 MiB and 16 MiB".
template <class Sizes>
std::string format_size_list(const Sizes& sizes) {
    std::vector<std::string> items;
    for (const auto bytes : sizes) items.push_back(format_size(static_cast<std::uint64_t>(bytes)));
    return format_list(items);
}

// The date and minute in UTC: "2026-11-25 19:40 UTC".
std::string format_utc_minute(std::chrono::system_clock::time_point when);

// JSON text (compact for indent -1); invalid UTF-8 in strings is replaced rather than thrown on.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace pinscope
