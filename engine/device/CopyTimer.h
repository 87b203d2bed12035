// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The seam between the bandwidth sweep and a device: something that times copies. The CUDA
// implementation lives in device/cuda (CudaCopyTimer.h), the emulated one in device/emulated;
// device/factory/CopyTimerFactory.h opens one by name.
#include <cstddef>
#include <memory>
#include <string>

#include "engine/device/CopyKinds.h"
#include "engine/device/Device.h"

namespace pinscope {

class CopyTimer {
public:
    virtual ~CopyTimer() = default;
    virtual DeviceInfo info() const = 0;
    // The sweep asks for the link once, after its copies (a GPU's link trains down while idle).
    virtual std::string link_name() const = 0;  // "PCIe Gen5 x16"; empty when unknown
    virtual double link_gb_per_s() const = 0;   // theoretical, per direction; 0 if unknown
    // Seconds for `repeats` back-to-back copies of `bytes`, timed as nvbandwidth does (CUDA events
    // around them; pinned and write-combined copies queued while a spin kernel holds the stream,
    // pageable ones, which the host stages inside the call, without the hold). traced: each copy
    // also bracketed by its own event pair, as the CUDA device records every copy of a run;
    // untraced: a plain cudaMemcpyAsync loop.
    virtual double time_copies(CopyDirection, HostMemoryKind, std::size_t bytes, int repeats, bool traced) = 0;
};

}  // namespace pinscope
