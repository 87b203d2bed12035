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

ModeledMemoryBus::Use::Use(std::atomic<int>& active, const HostLoadCurve& curve, Traffic traffic, int at_least_others,
                           double bytes)
    : active_(active), others_(active.fetch_add(1)) {
    const int counted = std::max(others_, at_least_others);
    factor_ = traffic == Traffic::PageableFromMemory && bytes > 0
                  ? curve.pageable_h2d_at(counted, bytes)
                  : HostLoadCurve::at(curve.others, factors_of(curve, traffic), counted);
}

}  // namespace pinscope
