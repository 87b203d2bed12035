#pragma once
// The modelled host's memory, shared by its threads. Each copy, load or pageable staging counts
// itself in while it runs; one that starts while k others run goes at the rate the profile
// measured with k other threads streaming through memory (calibrate's under-load curve).
#include <atomic>

#include "device/HardwareProfile.h"

namespace pinscope {

class ModeledMemoryBus {
public:
    enum class Traffic { Fill, FirstTouch, MemcpyToPinned, PageableH2D, FreePageable };

    explicit ModeledMemoryBus(HostLoadCurve curve) : curve_(std::move(curve)) {}

    // One thread streaming through memory, for as long as it lives.
    class Use {
    public:
        Use(std::atomic<int>& active, const HostLoadCurve& curve, Traffic traffic);
        ~Use() { --active_; }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        int others() const { return others_; }
        // The curve's factor for this traffic with others() busy: a rate factor (a cost factor for
        // FreePageable); 1 when no curve was measured.
        double factor() const { return factor_; }

    private:
        std::atomic<int>& active_;
        int others_;
        double factor_;
    };

    Use use(Traffic traffic) { return Use(active_, curve_, traffic); }
    int active() const { return active_.load(); }

private:
    HostLoadCurve curve_;
    std::atomic<int> active_{0};
};

}  // namespace pinscope
