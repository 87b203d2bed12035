// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The modelled process's memory map, as page-locking in place holds it: a cudaHostRegister keeps
// it for the first share of its length that the profile's unmap_waits_for_host_register gives
// (the driver pins the pages under the process's mmap lock), and a munmap on another thread
// begins only once it is free.
#include <algorithm>
#include <atomic>

#include "engine/clock/TimeNs.h"

namespace pinscope {

class ModeledMemoryMap {
public:
    // Held until `end`, or longer where another call holds it longer.
    void hold_until(TimeNs end) {
        TimeNs held = held_until_.load();
        while (held < end && !held_until_.compare_exchange_weak(held, end)) {
        }
    }
    // When a munmap may begin.
    TimeNs free_at() const { return held_until_.load(); }

private:
    std::atomic<TimeNs> held_until_{0};
};

}  // namespace pinscope
