// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A device as the configuration and the command line name it: "auto", "emulated[:PROFILE]" or
// "cuda[:N]", parsed here once; everything else asks the parsed form, never the string.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pinscope {

enum class DeviceKind : std::uint8_t { Auto, Emulated, Cuda };
const char* to_string(DeviceKind kind);  // "auto", "emulated", "cuda"

inline constexpr int kMaxCudaIndex = 63;

struct DeviceChoice {
    DeviceKind kind = DeviceKind::Auto;
    int cuda_ordinal = 0;  // cuda:N
    std::string profile;   // emulated:PROFILE (a built-in name or a file); empty: the default profile
};

// Nothing when `name` is none of the forms above (or N is not 0 to kMaxCudaIndex).
std::optional<DeviceChoice> parse_device(std::string_view name);

}  // namespace pinscope
