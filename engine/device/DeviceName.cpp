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
    return device.starts_with("cuda:") ? std::stoi(device.substr(5)) : 0;
}

std::string emulated_profile(const std::string& device) {
    constexpr std::string_view prefix = "emulated:";
    return device.size() > prefix.size() && device.starts_with(prefix) ? device.substr(prefix.size())
                                                                        : std::string(kDefaultProfile);
}

}  // namespace pinscope
