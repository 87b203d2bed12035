// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/emulated/EmulatedCopyTimer.h"

#include "engine/device/emulated/EmulatedDevice.h"

namespace pinscope {

EmulatedCopyTimer::EmulatedCopyTimer(HardwareProfile profile) : profile_(std::move(profile)) {}

DeviceInfo EmulatedCopyTimer::info() const { return emulated_device_info(profile_); }

std::string EmulatedCopyTimer::link_name() const { return profile_.link_name; }

double EmulatedCopyTimer::link_gb_per_s() const { return profile_.link_gb_per_s; }

double EmulatedCopyTimer::gb_per_s(CopyDirection direction, HostMemoryKind memory, double bytes) const {
    const bool h2d = direction == CopyDirection::H2D;
    const auto curve = [&]() -> const SizeCurve& {
        switch (memory) {
        case HostMemoryKind::Pinned: return h2d ? profile_.h2d_pinned_gb_per_s : profile_.d2h_pinned_gb_per_s;
        case HostMemoryKind::Pageable: return h2d ? profile_.h2d_pageable_gb_per_s : profile_.d2h_pageable_gb_per_s;
        case HostMemoryKind::WriteCombined: break;
        }
        // A profile built in code may lack the optional write-combined curves: they read as pinned.
        const SizeCurve& wc = h2d ? profile_.h2d_write_combined_gb_per_s : profile_.d2h_write_combined_gb_per_s;
        return !wc.empty() ? wc : h2d ? profile_.h2d_pinned_gb_per_s : profile_.d2h_pinned_gb_per_s;
    };
    return curve().at(bytes);
}

double EmulatedCopyTimer::time_copies(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int repeats,
                                      bool /*traced*/) {
    const double size = static_cast<double>(bytes);
    const double rate = gb_per_s(direction, memory, size) * 1e9;
    return rate > 0 ? size * repeats / rate : 0;
}

}  // namespace pinscope
