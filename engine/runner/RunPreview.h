// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a run of a configuration would be placed, before it starts: the frame a run source would
// open with (its topology, and the device and GPU the engine would pick), with nothing run yet.
// The window's NUMA tab shows it while no run goes.
#include <optional>

#include "engine/device/CudaDeviceList.h"
#include "engine/runner/RunFrame.h"

namespace pinscope {

// The CUDA device a run of `config` would open, from this machine's `devices`; none when it would
// run on the emulated device.
std::optional<DeviceInfo> cuda_device_of(const LoaderConfig& config, const CudaDeviceList& devices);

// A first frame without spans: the run's topology, and the device with the bus id of the GPU it
// runs on (or stands for). Throws ConfigError when the topology cannot be loaded.
RunFrame preview_frame(const LoaderConfig& config, const CudaDeviceList& devices);

}  // namespace pinscope
