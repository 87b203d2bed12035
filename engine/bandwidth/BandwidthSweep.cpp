// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bandwidth/BandwidthSweep.h"

#include "engine/bandwidth/TimerSweep.h"
#include "engine/device/factory/CopyTimerFactory.h"
#include "engine/device/factory/DeviceFactory.h"

namespace pinscope {

BandwidthResult run_bandwidth_sweep(const BandwidthOptions& options,
                                    const std::function<bool(double, const BandwidthPoint&)>& progress) {
    const auto issues = find_bandwidth_issues(options);
    if (!issues.empty()) throw ConfigError(issues.front());
    check_device_name(options.device);
    const ResolvedDevice resolved = resolve_device(options.device);
    const std::unique_ptr<CopyTimer> timer = open_copy_timer(resolved.device);
    BandwidthResult result =
        sweep_copy_timer(*timer, options, bandwidth_sizes(options.min_bytes, options.max_bytes), progress);
    result.note = resolved.note;
    return result;
}

}  // namespace pinscope
