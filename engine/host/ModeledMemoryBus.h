// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The modelled host's memory, shared by its threads. Each copy, load or pageable staging counts
// itself in while it runs; one that starts while k others run goes at the rate the profile
// measured with k other threads streaming through memory (calibrate's under-load curve).
#include <atomic>

#include "engine/device/HardwareProfile.h"

namespace pinscope {

class ModeledMemoryBus {
public:
    // A thread's own streaming (Fill, FirstTouch), work on a batch a worker handed over, whose bytes
    // are no longer in the caches (PinFromMemory, PageableFromMemory), freeing a batch (Free), or
    // page-locking one (HostAlloc: cudaHostAlloc and cudaFreeHost; HostRegister: cudaHostRegister
    // and cudaHostUnregister), whose pages fault in.
    enum class Traffic { Fill, FirstTouch, PinFromMemory, PageableFromMemory, Free, HostAlloc, HostRegister };

    explicit ModeledMemoryBus(HostLoadCurve curve) : curve_(std::move(curve)) {}

    // One thread streaming through memory, for as long as it lives.
    class Use {
    public:
        Use(std::atomic<int>& active, const HostLoadCurve& curve, Traffic traffic, int at_least_others, double bytes);
        ~Use() { --active_; }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        int others() const { return others_; }
        // The curve's factor for this traffic with others() busy, or at_least_others if more: a rate
        // factor (a cost factor for Free); 1 when no curve was measured.
        double factor() const { return factor_; }

    private:
        std::atomic<int>& active_;
        int others_;
        double factor_;
    };

    // `bytes`: the batch's size, for traffic whose factor depends on it (PageableFromMemory).
    Use use(Traffic traffic, int at_least_others = 0, double bytes = 0) {
        return Use(active_, curve_, traffic, at_least_others, bytes);
    }
    // The curve's factor for `traffic` with the threads streaming now, without joining them (a
    // page-locking call, which the others' streaming slows but which does not stream itself).
    double factor_now(Traffic traffic) const;
    int active() const { return active_.load(); }

private:
    HostLoadCurve curve_;
    std::atomic<int> active_{0};
};

}  // namespace pinscope
