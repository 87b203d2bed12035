// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/HwlocVersion.h"

#include <hwloc.h>

namespace pinscope {

namespace {
std::string api_text(unsigned api) {
    return std::to_string(api >> 16) + "." + std::to_string((api >> 8) & 0xff) + "." + std::to_string(api & 0xff);
}
}  // namespace

std::string hwloc_version() {
    std::string text = HWLOC_VERSION;
    if (const unsigned loaded = hwloc_get_api_version(); loaded != HWLOC_API_VERSION)
        text += " (loaded library: API " + api_text(loaded) + ")";
    return text;
}

}  // namespace pinscope
