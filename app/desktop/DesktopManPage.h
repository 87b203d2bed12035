// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope's manual page, from the option table its parser reads (DesktopOptions.h), for
// `pinscope --help-man` (the build writes pinscope.1 with it).
#include <string>

namespace pinscope::desktop {

inline constexpr const char* kHelpManFlag = "--help-man";

std::string desktop_man_page();

}  // namespace pinscope::desktop
