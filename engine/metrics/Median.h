// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The median of timed samples: the middle value, or the mean of the middle two. Empty: 0.
#include <algorithm>
#include <vector>

namespace pinscope {

inline double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace pinscope
