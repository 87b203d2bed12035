// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The promises every fuzz target checks besides "no crash": a message for bad input is short and
// shows nothing a terminal would act on.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace pinscope::fuzz {

inline constexpr std::size_t kMaxMessageBytes = 2000;

inline void check_message(std::string_view text, bool lines_allowed = false, std::size_t max_bytes = kMaxMessageBytes) {
    bool bad = text.size() > max_bytes;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && !(lines_allowed && c == '\n')) || byte == 0x7F) bad = true;
    }
    if (!bad) return;
    std::fprintf(stderr, "message breaks the rules (%zu bytes): %.*s\n", text.size(), static_cast<int>(std::min<std::size_t>(text.size(), 400)), text.data());
    std::abort();
}

inline void require(bool condition, const char* what) {
    if (condition) return;
    std::fprintf(stderr, "broken promise: %s\n", what);
    std::abort();
}

}  // namespace pinscope::fuzz
