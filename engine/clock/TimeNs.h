// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's time points and durations.
#include <cstdint>

namespace pinscope {

// Time points are nanoseconds on the host's steady clock (std::chrono::steady_clock).
using TimeNs = std::int64_t;

}  // namespace pinscope
