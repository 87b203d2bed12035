// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/factory/DeviceFactory.h"

#include "engine/BuildConfig.h"
#include "engine/device/DeviceName.h"
#include "engine/device/emulated/EmulatedDevice.h"

#if PINSCOPE_HAVE_CUDA
#include "engine/device/cuda/CudaDevice.h"
#endif

namespace pinscope {

OpenedDevice open_device(const LoaderConfig& config) {
    if (config.device_choice().kind == DeviceKind::Auto) {
        LoaderConfig resolved = config;
        resolved.device = resolve_device(config.device).device;
        return open_device(resolved);
    }
    if (config.is_cuda()) {
#if PINSCOPE_HAVE_CUDA
        HardwareProfile profile = load_profile(kDefaultProfile);
        auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
        return OpenedDevice{open_cuda_device(cuda_ordinal(config.device)), std::move(profile), std::move(bus)};
#else
        throw DeviceError("device " + config.device + ": " + kNoCudaSupport + "; use --device emulated");
#endif
    }
    HardwareProfile profile = load_profile(emulated_profile(config.device));
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    auto device = std::make_unique<EmulatedDevice>(profile, config.effective_host(), bus);
    return OpenedDevice{std::move(device), std::move(profile), std::move(bus)};
}

ResolvedDevice resolve_device(const std::string& device) {
    if (const auto choice = parse_device(device); !choice || choice->kind != DeviceKind::Auto) return {device, {}};
    const CudaDeviceList cuda = list_cuda_devices();
    if (!cuda.devices.empty()) return {"cuda:0", {}};
    return {to_string(DeviceKind::Emulated), "no CUDA GPU (" + cuda.why_none + "): using the emulated device, profile " + kDefaultProfile};
}

CudaDeviceList list_cuda_devices() {
#if PINSCOPE_HAVE_CUDA
    return list_cuda_devices_present();
#else
    return {{}, kNoCudaSupport};
#endif
}

}  // namespace pinscope
