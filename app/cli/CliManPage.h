// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli's manual page, walked from its CLI11 definition (the commands and flags --help
// shows), for `pinscope-cli --help-man` (the build writes pinscope-cli.1 with it).
#include <string>

namespace CLI {
class App;
}

namespace pinscope::cli {

// The hidden flag that prints the page; not in --help.
inline constexpr const char* kHelpManFlag = "--help-man";

std::string cli_man_page(CLI::App& app);

}  // namespace pinscope::cli
