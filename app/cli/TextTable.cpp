// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/TextTable.h"

#include <algorithm>

namespace pinscope::cli {

std::vector<std::string> align_table(const std::vector<std::vector<std::string>>& rows,
                                     const std::vector<Align>& align) {
    std::vector<std::size_t> widths;
    for (const auto& row : rows) {
        if (row.size() > widths.size()) widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    std::vector<std::string> lines;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string pad(widths[i] - row[i].size(), ' ');
            const bool left = i < align.size() && align[i] == Align::Left;
            line += (i > 0 ? "  " : "") + (left ? row[i] + pad : pad + row[i]);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace pinscope::cli
