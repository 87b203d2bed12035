// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which lanes the timeline shows. A configuration change restarts the pipeline with its own
// threads, so a lane that got no span after a change has ended there (fewer workers, the pin
// thread gone with pin_mode worker); it is shown while the view reaches back before its end, and
// left out of views that start after it. A lane idle in view but not ended stays. Plain C++.
#include <optional>
#include <vector>

#include "ui/model/SpanStore.h"

namespace pinscope::ui {

struct ShownLane {
    Lane lane;
    std::optional<TimeNs> ended;  // the change after which the lane got no span
    friend bool operator==(const ShownLane&, const ShownLane&) = default;
};

// `reconfigurations`: the times of the run's configuration changes, sorted.
std::optional<TimeNs> lane_ended_at(const LaneSpans& lane, const std::vector<TimeNs>& reconfigurations);
// The lanes of `store` in display order, less those that ended at or before `view_from`.
std::vector<ShownLane> lanes_to_show(const SpanStore& store, const std::vector<TimeNs>& reconfigurations,
                                     TimeNs view_from);

}  // namespace pinscope::ui
