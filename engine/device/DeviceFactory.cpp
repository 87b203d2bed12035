#include "device/DeviceFactory.h"

#include "BuildConfig.h"
#include "device/emulated/EmulatedDevice.h"

#if PINSCOPE_HAVE_CUDA
#include "device/cuda/CudaDevice.h"
#endif

namespace pinscope {

OpenedDevice open_device(const LoaderConfig& config) {
    if (config.device == "auto") {
        LoaderConfig resolved = config;
        resolved.device = resolve_device(config.device).device;
        return open_device(resolved);
    }
    if (config.is_cuda()) {
#if PINSCOPE_HAVE_CUDA
        const int ordinal = config.device == "cuda" ? 0 : std::stoi(config.device.substr(5));
        return OpenedDevice{open_cuda_device(ordinal), load_profile(kDefaultProfile)};
#else
        throw DeviceError("device " + config.device +
                          ": this build of pinscope has no CUDA support (the CUDA toolkit was not found when it "
                          "was configured); use --device emulated");
#endif
    }
    const std::string profile_name =
        config.device.size() > 9 && config.device.starts_with("emulated:") ? config.device.substr(9) : kDefaultProfile;
    HardwareProfile profile = load_profile(profile_name);
    auto device = std::make_unique<EmulatedDevice>(profile, config.effective_host());
    return OpenedDevice{std::move(device), std::move(profile)};
}

ResolvedDevice resolve_device(const std::string& device) {
    if (device != "auto") return {device, {}};
    const CudaDeviceList cuda = list_cuda_devices();
    if (!cuda.devices.empty()) return {"cuda:0", {}};
    return {"emulated", "no CUDA GPU (" + cuda.why_none + "): using the emulated device, profile " + kDefaultProfile};
}

CudaDeviceList list_cuda_devices() {
#if PINSCOPE_HAVE_CUDA
    return list_cuda_devices_present();
#else
    return {{}, "this build of pinscope has no CUDA support (the CUDA toolkit was not found when it was configured)"};
#endif
}

}  // namespace pinscope
