// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// summary.json read back into a RunSummary: what a recording keeps of a finished run. The JSON
// has the fractions clamped to 0..1 and not the metrics' time range; a recording keeps the exact
// figures in columns of its own (RecordingWriter), which replace those.
#include <nlohmann/json_fwd.hpp>

#include "engine/runner/RunRecord.h"

namespace pinscope {

// The inverse of summary_to_json. Throws std::runtime_error naming the key that is missing or of
// the wrong kind (a recording is input).
RunSummary summary_from_json(const nlohmann::json& json);

// summary.json's "bottleneck" object (a segment's too). Throws std::runtime_error.
Bottleneck bottleneck_from_json(const nlohmann::json& object);

// The parsed forms of to_string(DeviceKind) and to_string(HostMode); throw std::runtime_error.
DeviceKind device_kind_from_text(const std::string& text);
HostMode host_mode_from_text(const std::string& text);

}  // namespace pinscope
