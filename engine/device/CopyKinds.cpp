// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/CopyKinds.h"

#include <algorithm>

namespace pinscope {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return text;
}

}  // namespace

std::string to_string(CopyDirection direction) { return direction == CopyDirection::H2D ? "h2d" : "d2h"; }

std::string to_string(HostMemoryKind memory) {
    switch (memory) {
    case HostMemoryKind::Pinned: return "pinned";
    case HostMemoryKind::Pageable: return "pageable";
    case HostMemoryKind::WriteCombined: return "wc";
    }
    return "pinned";
}

std::optional<CopyDirection> parse_copy_direction(const std::string& text) {
    const std::string word = lower(text);
    if (word == "h2d") return CopyDirection::H2D;
    if (word == "d2h") return CopyDirection::D2H;
    return std::nullopt;
}

std::optional<HostMemoryKind> parse_host_memory_kind(const std::string& text) {
    const std::string word = lower(text);
    if (word == "pinned") return HostMemoryKind::Pinned;
    if (word == "pageable") return HostMemoryKind::Pageable;
    if (word == "wc" || word == "write-combined") return HostMemoryKind::WriteCombined;
    return std::nullopt;
}

}  // namespace pinscope
