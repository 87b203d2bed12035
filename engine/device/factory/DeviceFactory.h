// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opens the device a configuration names: "emulated[:PROFILE]" or "cuda[:N]".
#include <memory>
#include <string>

#include "engine/config/LoaderConfig.h"
#include "engine/device/CudaDeviceList.h"
#include "engine/device/Device.h"
#include "engine/device/DeviceName.h"  // the parts of a device string
#include "engine/device/HardwareProfile.h"
#include "engine/host/ModeledMemoryBus.h"

namespace pinscope {

struct OpenedDevice {
    std::unique_ptr<Device> device;
    HardwareProfile profile;  // what modelled host work follows (the emulated device's own profile)
    // The modelled host's memory, shared by modelled host work and the emulated device's pageable
    // staging.
    std::shared_ptr<ModeledMemoryBus> memory_bus;
};

// "auto" becomes "cuda:0" when a CUDA GPU is present and "emulated" otherwise; `note` says why
// when it falls back. Other device strings are returned as they are.
struct ResolvedDevice {
    std::string device;
    std::string note;
};
ResolvedDevice resolve_device(const std::string& device);

// Throws DeviceError (no such GPU, no CUDA in this build, driver failure) or ConfigError (bad profile).
OpenedDevice open_device(const LoaderConfig& config);

CudaDeviceList list_cuda_devices();

// Why this build cannot open a CUDA device.
inline constexpr const char* kNoCudaSupport =
    "this build of pinscope has no CUDA support (the CUDA toolkit was not found when it was configured)";

}  // namespace pinscope
