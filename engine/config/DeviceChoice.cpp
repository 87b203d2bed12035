// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/DeviceChoice.h"

#include <charconv>

namespace pinscope {

const char* to_string(DeviceKind kind) {
    switch (kind) {
        case DeviceKind::Auto: return "auto";
        case DeviceKind::Emulated: return "emulated";
        case DeviceKind::Cuda: return "cuda";
    }
    return "auto";
}

std::optional<DeviceChoice> parse_device(std::string_view name) {
    constexpr std::string_view emulated = "emulated", cuda = "cuda";
    if (name == "auto") return DeviceChoice{};
    if (name == emulated) return DeviceChoice{DeviceKind::Emulated, 0, {}};
    if (name == cuda) return DeviceChoice{DeviceKind::Cuda, 0, {}};
    if (name.starts_with(emulated) && name.size() > emulated.size() + 1 && name[emulated.size()] == ':')
        return DeviceChoice{DeviceKind::Emulated, 0, std::string(name.substr(emulated.size() + 1))};
    if (name.starts_with(cuda) && name.size() > cuda.size() + 1 && name[cuda.size()] == ':') {
        const std::string_view digits = name.substr(cuda.size() + 1);
        int index = -1;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
        if (error == std::errc{} && end == digits.data() + digits.size() && index >= 0 && index <= kMaxCudaIndex)
            return DeviceChoice{DeviceKind::Cuda, index, {}};
    }
    return std::nullopt;
}

}  // namespace pinscope
