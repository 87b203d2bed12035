// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the CLI tests look for in what pinscope-cli printed or wrote.
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace pinscope::test {

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// How many times `what` occurs in `text`, overlapping ones included.
inline std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t found = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
    return found;
}

inline std::size_t line_count(const std::string& text) { return count_of(text, "\n"); }

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace pinscope::test
