// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/runner/RunPreview.h"

#include "engine/device/DeviceName.h"
#include "engine/numa/NumaPlan.h"

namespace pinscope {

std::optional<DeviceInfo> cuda_device_of(const LoaderConfig& config, const CudaDeviceList& devices) {
    const DeviceChoice choice = config.device_choice();
    const bool cuda = choice.kind == DeviceKind::Cuda || (choice.kind == DeviceKind::Auto && !devices.devices.empty());
    if (!cuda) return std::nullopt;
    const auto ordinal = static_cast<std::size_t>(choice.kind == DeviceKind::Cuda ? choice.cuda_ordinal : 0);
    if (ordinal >= devices.devices.size()) return std::nullopt;
    return devices.devices[ordinal];
}

RunFrame preview_frame(const LoaderConfig& config, const CudaDeviceList& devices) {
    RunFrame frame;
    frame.first = true;
    frame.topology = load_run_topology(config);
    // A loaded topology is another machine: its GPUs are stood for by the emulated device.
    const std::optional<DeviceInfo> cuda = frame.topology->from_file ? std::nullopt : cuda_device_of(config, devices);
    DeviceInfo device = cuda.value_or(DeviceInfo{});
    if (!cuda) {
        device.kind = DeviceKind::Emulated;
        device.profile = emulated_profile(config.device);
    }
    const TopologyGpu* gpu = run_gpu(config, *frame.topology, cuda.value_or(DeviceInfo{}));
    device.pci_bus_id = gpu != nullptr ? gpu->pci_bus_id : cuda ? cuda->pci_bus_id : std::string();
    frame.summary.config = config;
    frame.summary.device = device;
    frame.summary.host = config.effective_host();
    return frame;
}

}  // namespace pinscope
