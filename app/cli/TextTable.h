// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Aligned text tables for the terminal: columns padded to their widest cell, two spaces apart.
#include <string>
#include <vector>

namespace pinscope::cli {

enum class Align { Left, Right };  // words on the left, numbers on the right

// One line per row (no newline), trailing spaces removed. Columns past `align` align right.
std::vector<std::string> align_table(const std::vector<std::vector<std::string>>& rows,
                                     const std::vector<Align>& align);

}  // namespace pinscope::cli
