// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kinds of host<->device copy that `pinscope-cli bandwidth` measures, and their names on the
// command line and in CSV: "h2d", "d2h"; "pinned", "pageable", "wc".
#include <optional>
#include <string>

namespace pinscope {

enum class CopyDirection { H2D, D2H };
// Pinned: cudaHostAlloc'd (page-locked, cached). Pageable: plain malloc'd memory, staged by the
// driver. WriteCombined: cudaHostAlloc with cudaHostAllocWriteCombined (page-locked, uncached).
enum class HostMemoryKind { Pinned, Pageable, WriteCombined };

std::string to_string(CopyDirection direction);  // "h2d", "d2h"
std::string to_string(HostMemoryKind memory);    // "pinned", "pageable", "wc"
// Case-insensitive; "write-combined" is accepted for "wc".
std::optional<CopyDirection> parse_copy_direction(const std::string& text);
std::optional<HostMemoryKind> parse_host_memory_kind(const std::string& text);

}  // namespace pinscope
