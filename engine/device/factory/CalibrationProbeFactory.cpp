// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/factory/CalibrationProbeFactory.h"

#include "engine/BuildConfig.h"
#include "engine/device/factory/DeviceFactory.h"

#if PINSCOPE_HAVE_CUDA
#include "engine/device/cuda/CudaCalibrationProbe.h"
#endif

namespace pinscope {

namespace {

constexpr const char* kNeedsGpu = "calibrate needs a real NVIDIA GPU";

}  // namespace

std::unique_ptr<CalibrationProbe> open_calibration_probe(const std::string& device) {
    check_device_name(device);
    const DeviceKind kind = parse_device(device)->kind;  // checked above
    if (kind == DeviceKind::Auto) {
        const CudaDeviceList cuda = list_cuda_devices();
        if (cuda.devices.empty()) throw DeviceError(std::string(kNeedsGpu) + " and there is none: " + cuda.why_none);
        return open_calibration_probe("cuda:0");
    }
    if (kind != DeviceKind::Cuda)
        throw DeviceError(std::string(kNeedsGpu) + ": " + device +
                          " is the emulated device, which replays a profile rather than measuring one; calibrate a "
                          "CUDA device (cuda or cuda:N)");
#if PINSCOPE_HAVE_CUDA
    return open_cuda_calibration_probe(cuda_ordinal(device));
#else
    throw DeviceError(std::string(kNeedsGpu) + ": " + device + ": " + kNoCudaSupport);
#endif
}

}  // namespace pinscope
