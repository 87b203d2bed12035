// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one place for units: memory in binary units (KiB, MiB, GiB: what the kernel locks and
// pools hand out), rates in decimal GB/s (as links and copies are quoted). The window, the CLI,
// the exports and the tooltips all write sizes through here, so one batch reads the same
// everywhere ("36.8 MiB").
#include <cstdint>
#include <string>

namespace pinscope {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = kKiB * 1024;
inline constexpr std::uint64_t kGiB = kMiB * 1024;

// "64 MiB", "36.8 MiB", "5.9 GiB", "512 B": the largest unit under which the value is at least
// 1; whole values without decimals.
std::string memory_text(double bytes, int decimals = 1);
// "13.21 GB/s" (1 GB = 10^9 bytes).
std::string rate_text(double bytes_per_s, int decimals = 2);

}  // namespace pinscope
