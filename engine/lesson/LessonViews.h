// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The names a lesson's highlight may use: the timeline's lanes (as the trace names their kinds)
// and the window's plots (as its screenshot menu names them). Numbers are figure names
// (LessonFigures.h).
#include <array>
#include <string_view>

namespace pinscope {

inline constexpr std::array<std::string_view, 5> kLessonLanes{"worker", "pin thread", "consumer", "copy stream",
                                                             "compute stream"};
inline constexpr std::array<std::string_view, 6> kLessonPlots{"timeline",    "pinned-memory", "throughput",
                                                             "utilisation", "in-flight",     "numa"};

}  // namespace pinscope
