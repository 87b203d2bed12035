#pragma once
// The real GPU behind the Device interface. Only this folder includes CUDA headers; the rest of
// the engine sees these two functions (through DeviceFactory) and the Device interface.
#include <memory>

#include "device/DeviceFactory.h"

namespace pinscope {

// Opens CUDA device `ordinal`; throws DeviceError naming the device and the reason.
std::unique_ptr<Device> open_cuda_device(int ordinal);

// The GPUs the driver sees, or why there are none (no driver, no GPU, driver too old).
CudaDeviceList list_cuda_devices_present();

}  // namespace pinscope
