// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The modelled host's memory, shared by its threads. Each copy, load or pageable staging counts
// itself in while it runs; one that starts while k others run goes at the rate the profile
// measured with k other threads streaming through memory (calibrate's under-load curve), and no
// faster than the machine's memory lets that many streams go together (the curve's all_threads):
// a stream counts as much as it streams against a thread alone (a collate that page faults at a
// fifth of that rate, a fifth). It also holds the process's memory map (ModeledMemoryMap), which
// page-locking in place and unmapping a batch share.
#include <atomic>
#include <mutex>

#include "engine/device/HardwareProfile.h"
#include "engine/host/ModeledMemoryMap.h"

namespace pinscope {

class ModeledMemoryBus {
public:
    // A thread's own streaming (Fill, FirstTouch), work on a batch a worker handed over, whose bytes
    // are no longer in the caches (PinFromMemory, PageableFromMemory), freeing a batch (Free), or
    // page-locking one (HostAlloc: cudaHostAlloc and cudaFreeHost; HostRegister: cudaHostRegister
    // and cudaHostUnregister), whose pages fault in.
    enum class Traffic { Fill, FirstTouch, PinFromMemory, PageableFromMemory, Free, HostAlloc, HostRegister };
    // What a stream does to memory: which of calibrate's all-threads totals it shares.
    enum class Stream { Copy, Write };

    explicit ModeledMemoryBus(HostLoadCurve curve) : curve_(std::move(curve)) {}

    // One thread streaming through memory, for as long as it lives.
    class Use {
    public:
        Use(ModeledMemoryBus& bus, Traffic traffic, int at_least_others, double bytes);
        ~Use();
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        int others() const { return others_; }
        // The curve's factor for this traffic with others() busy, or at_least_others if more: a rate
        // factor (a cost factor for Free); 1 when no curve was measured.
        double factor() const { return factor_; }
        // Takes this stream's place in the machine's memory: `bytes_per_s` is the rate it would go
        // at with no other stream. Returns the rate it gets with the streams running now: as fast
        // as calibrate's threads went with as many streaming together (at most `bytes_per_s`).
        // Once per use; a use that never calls it does not stream.
        double rate_sharing_memory(double bytes_per_s, Stream stream);

    private:
        ModeledMemoryBus& bus_;
        int others_;
        double factor_;
        double streams_ = 0;  // how much of a streaming thread this use counts for
    };

    // `bytes`: the batch's size, for traffic whose factor depends on it (PageableFromMemory).
    Use use(Traffic traffic, int at_least_others = 0, double bytes = 0) { return Use(*this, traffic, at_least_others, bytes); }
    // The curve's factor for `traffic` with the threads streaming now, without joining them (a
    // page-locking call, which the others' streaming slows but which does not stream itself).
    double factor_now(Traffic traffic) const;
    int active() const { return active_.load(); }
    // How many threads' streaming the uses running now add up to.
    double streams() const;
    ModeledMemoryMap& memory_map() { return memory_map_; }

private:
    HostLoadCurve curve_;
    std::atomic<int> active_{0};
    mutable std::mutex streams_mutex_;
    double streams_ = 0;
    ModeledMemoryMap memory_map_;
};

}  // namespace pinscope
