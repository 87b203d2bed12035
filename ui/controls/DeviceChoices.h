// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the device selector offers: the configuration's default device, every built-in emulated
// profile and every CUDA GPU this machine has, each with a label for people and the device string
// for the engine.
#include <QString>

#include <string>
#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/device/CudaDeviceList.h"
#include "engine/device/Device.h"

namespace pinscope::ui {

struct DeviceOption {
    QString label;       // "emulated · h200-pcie5"
    std::string device;  // "emulated:h200-pcie5"
    QString tooltip;
};

std::vector<DeviceOption> device_choices();

// The device a new user gets: LoaderConfig's default where the engine resolves it itself ("auto");
// otherwise the first CUDA GPU if there is one, else the emulated device.
std::string default_device();

// This machine's CUDA GPUs, asked for once.
const CudaDeviceList& cuda_devices();

// Whether a run of `config` uses a real GPU: a CUDA device, or "auto" where this machine has one.
bool runs_on_cuda(const LoaderConfig& config);

// Why there is no real GPU here ("no CUDA in this build", "no NVIDIA driver"...); empty if there is.
QString why_no_gpu();

}  // namespace pinscope::ui
