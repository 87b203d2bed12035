// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Copy timing predicted from a hardware profile's bandwidth curves, for `pinscope-cli bandwidth`
// without a GPU. Nothing waits: the modelled seconds come back at once, so a sweep is instant and
// shows the profile's curves exactly (every sample alike, traced as fast as untraced).
#include "engine/device/CopyTimer.h"
#include "engine/device/HardwareProfile.h"

namespace pinscope {

class EmulatedCopyTimer final : public CopyTimer {
public:
    explicit EmulatedCopyTimer(HardwareProfile profile);

    DeviceInfo info() const override;
    std::string link_name() const override;
    double link_gb_per_s() const override;
    // repeats * bytes at the profile's rate for that size, direction and memory.
    double time_copies(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int repeats,
                       bool traced) override;

    // The profile's rate in GB/s for one copy of `bytes`.
    double gb_per_s(CopyDirection direction, HostMemoryKind memory, double bytes) const;

private:
    HardwareProfile profile_;
};

}  // namespace pinscope
