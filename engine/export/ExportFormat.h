// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Formatting shared by the exporters, so that every file writes times, rates, numbers and lanes
// the same way (numbers and sizes: text/TextFormat.h). All text is locale-independent.
#include <optional>
#include <string>

#include "engine/text/TextFormat.h"  // the numbers and sizes every export writes
#include "engine/trace/Span.h"

namespace pinscope {

double relative_us(TimeNs time, TimeNs origin);
double relative_s(TimeNs time, TimeNs origin);

std::string format_time_us(TimeNs time, TimeNs origin);  // microseconds, 3 decimals (exact)
std::string format_time_s(TimeNs time, TimeNs origin);   // seconds, 6 decimals

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
