// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/host/ModeledMemoryBus.h"

#include <algorithm>

namespace pinscope {
namespace {

const std::vector<double>& factors_of(const HostLoadCurve& curve, ModeledMemoryBus::Traffic traffic) {
    switch (traffic) {
        case ModeledMemoryBus::Traffic::Fill: return curve.fill;
        case ModeledMemoryBus::Traffic::FirstTouch: return curve.first_touch;
        case ModeledMemoryBus::Traffic::PinFromMemory: return curve.memcpy_to_pinned;
        case ModeledMemoryBus::Traffic::PageableFromMemory: return curve.pageable_h2d;
        case ModeledMemoryBus::Traffic::Free: return curve.free_pageable;
        case ModeledMemoryBus::Traffic::HostAlloc: return curve.host_alloc;
        case ModeledMemoryBus::Traffic::HostRegister: return curve.host_register;
    }
    return curve.fill;
}

}  // namespace

double ModeledMemoryBus::factor_now(Traffic traffic) const {
    return HostLoadCurve::at(curve_.others, factors_of(curve_, traffic), active_.load());
}

double ModeledMemoryBus::streams() const {
    std::lock_guard lock(streams_mutex_);
    return streams_;
}

ModeledMemoryBus::Use::Use(ModeledMemoryBus& bus, Traffic traffic, int at_least_others, double bytes)
    : bus_(bus), others_(bus.active_.fetch_add(1)) {
    const HostLoadCurve& curve = bus.curve_;
    const int counted = std::max(others_, at_least_others);
    factor_ = traffic == Traffic::PageableFromMemory && bytes > 0
                  ? curve.pageable_h2d_at(counted, bytes)
                  : HostLoadCurve::at(curve.others, factors_of(curve, traffic), counted);
}

ModeledMemoryBus::Use::~Use() {
    --bus_.active_;
    if (streams_ > 0) {
        std::lock_guard lock(bus_.streams_mutex_);
        bus_.streams_ = std::max(0.0, bus_.streams_ - streams_);
    }
}

double ModeledMemoryBus::Use::rate_sharing_memory(double bytes_per_s, Stream stream) {
    const MemoryThroughputCurve& memory = bus_.curve_.all_threads;
    const std::vector<double>& totals = stream == Stream::Copy ? memory.copy_gb_per_s : memory.fill_gb_per_s;
    const double alone_bytes_per_s = MemoryThroughputCurve::one_thread(memory.threads, totals) * 1e9;
    if (!(alone_bytes_per_s > 0) || !(bytes_per_s > 0) || streams_ > 0) return bytes_per_s;
    streams_ = std::min(1.0, bytes_per_s / alone_bytes_per_s);
    std::lock_guard lock(bus_.streams_mutex_);
    bus_.streams_ += streams_;
    return bytes_per_s * MemoryThroughputCurve::share(memory.threads, totals, bus_.streams_);
}

}  // namespace pinscope
