// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Formatting shared by the exporters, so that every file writes times, rates, numbers and lanes
// the same way. All text is locale-independent.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/trace/Span.h"

namespace pinscope {

double relative_us(TimeNs time, TimeNs origin);
double relative_s(TimeNs time, TimeNs origin);

std::string format_fixed(double value, int decimals);  // "12.500"
std::string format_shortest(double value);             // the shortest text that reads back exactly
std::string format_time_us(TimeNs time, TimeNs origin);  // microseconds, 3 decimals (exact)
std::string format_time_s(TimeNs time, TimeNs origin);   // seconds, 6 decimals
// Exact: whole GiB or MiB ("1 GiB", "1200 MiB"), whole KiB below 1 MiB ("64 KiB"), otherwise
// bytes ("38535168 bytes").
std::string format_size(std::uint64_t bytes);
// Rounded for people to read, to a tenth of the largest unit it reaches: "36.8 MiB", "2 GiB", "0.5 KiB".
std::string format_size_rounded(std::uint64_t bytes);

// JSON text (compact for indent -1); invalid UTF-8 in strings is replaced rather than thrown on.
std::string json_text(const nlohmann::json& value, int indent = -1);

// bytes / duration in GB/s (1e9 bytes); nullopt for spans without bytes or without duration.
std::optional<double> span_gb_per_s(const Span& span);

// The lane kind as one token for file columns: "worker", "pin_thread", "copy_stream".
std::string lane_kind_token(LaneKind kind);

// Lanes in enum order of their kind (workers first), then by index.
bool lane_less(Lane a, Lane b);

// Export order of spans: by start time, then lane (kind in enum order, then index); ties keep
// their recorded order (sort stably).
bool span_export_less(const Span& a, const Span& b);

}  // namespace pinscope
