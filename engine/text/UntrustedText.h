// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text that came from input (a value, a path, a name in a file), made safe to show in a message
// or on a terminal: control characters, terminal escapes and invalid UTF-8 become visible \xNN
// escapes, and long text is cut with "..." so that a message stays a few lines.
#include <cstddef>
#include <string>
#include <string_view>

namespace pinscope {

// How much of an echoed value a message shows.
inline constexpr std::size_t kEchoChars = 60;

// Printable UTF-8 of at most `max_chars` characters (escapes count as their text). Applying it
// again changes nothing but the length bound.
std::string printable(std::string_view text, std::size_t max_chars = kEchoChars);

// How much of a path a message shows.
inline constexpr std::size_t kEchoPathChars = 120;

// A path made printable like `printable`, but shortened in the middle: the start and the file
// name stay, since the name is what tells the user which file a message is about.
std::string printable_path(std::string_view path, std::size_t max_chars = kEchoPathChars);

}  // namespace pinscope
