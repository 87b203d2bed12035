// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JSON that a user hands over (configurations, profiles, lessons): read within a size and depth
// limit, with messages that say where it is wrong and show values shortened and escaped.
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace pinscope::config_detail {

// Throws std::runtime_error whose text is the reason: the file's problem, or the parser's position
// and message.
nlohmann::json read_json_file(const std::string& path);
nlohmann::json parse_json_text(const std::string& text);
// A value as a message shows it: strings escaped and shortened, arrays and objects by their size.
std::string json_value_text(const nlohmann::json& value);

}  // namespace pinscope::config_detail
