// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/LaneVisibility.h"

#include <algorithm>

namespace pinscope::ui {

std::optional<TimeNs> lane_ended_at(const LaneSpans& lane, const std::vector<TimeNs>& reconfigurations) {
    const auto after = std::lower_bound(reconfigurations.begin(), reconfigurations.end(), lane.latest_end);
    if (after == reconfigurations.end()) return std::nullopt;
    return *after;
}

std::vector<ShownLane> lanes_to_show(const SpanStore& store, const std::vector<TimeNs>& reconfigurations,
                                     TimeNs view_from) {
    std::vector<ShownLane> shown;
    for (const auto& lane : store.lanes()) {
        const auto ended = lane_ended_at(lane, reconfigurations);
        if (!ended || *ended > view_from) shown.push_back({lane.lane, ended});
    }
    return shown;
}

}  // namespace pinscope::ui
