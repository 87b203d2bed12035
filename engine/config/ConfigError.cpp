// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/ConfigError.h"

#include "engine/text/UntrustedText.h"

namespace pinscope {

namespace {
// What is allowed may quote a reason that itself holds input (a path, a parser's excerpt): long
// enough for the longest rule, short enough for a few lines.
constexpr std::size_t kAllowedChars = 640;
}  // namespace

std::string ConfigIssue::message() const { return message(field); }

std::string ConfigIssue::message(const std::string& label) const {
    return printable(label) + ": " + printable(value) + " is not allowed; expected " + printable(allowed, kAllowedChars);
}

}  // namespace pinscope
