// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/DeviceName.h"

#include <string_view>

#include "engine/config/ConfigValidation.h"
#include "engine/device/HardwareProfile.h"

namespace pinscope {

void check_device_name(const std::string& device) {
    LoaderConfig config;
    config.device = device;
    for (const ConfigIssue& issue : find_config_issues(config))
        if (issue.field == "device") throw ConfigError(issue);
}

int cuda_ordinal(const std::string& device) {
    check_device_name(device);
    return parse_device(device)->cuda_ordinal;
}

std::string emulated_profile(const std::string& device) {
    const std::optional<DeviceChoice> choice = parse_device(device);
    return choice && choice->kind == DeviceKind::Emulated && !choice->profile.empty() ? choice->profile
                                                                                        : std::string(kDefaultProfile);
}

}  // namespace pinscope
