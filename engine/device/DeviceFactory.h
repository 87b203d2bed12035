#pragma once
// Opens the device a configuration names: "emulated[:PROFILE]" or "cuda[:N]".
#include <memory>
#include <string>
#include <vector>

#include "config/LoaderConfig.h"
#include "device/Device.h"
#include "device/HardwareProfile.h"

namespace pinscope {

struct OpenedDevice {
    std::unique_ptr<Device> device;
    HardwareProfile profile;  // what modelled host work follows (the emulated device's own profile)
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

struct CudaDeviceList {
    std::vector<DeviceInfo> devices;
    std::string why_none;  // set when the list is empty: no CUDA in this build, no driver, no GPU
};
CudaDeviceList list_cuda_devices();

}  // namespace pinscope
