// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/factory/CopyTimerFactory.h"

#include "engine/BuildConfig.h"
#include "engine/device/emulated/EmulatedCopyTimer.h"
#include "engine/device/factory/DeviceFactory.h"

#if PINSCOPE_HAVE_CUDA
#include "engine/device/cuda/CudaCopyTimer.h"
#endif

namespace pinscope {

std::unique_ptr<CopyTimer> open_copy_timer(const std::string& device) {
    check_device_name(device);
    const DeviceKind kind = parse_device(device)->kind;  // checked above
    if (kind == DeviceKind::Auto) return open_copy_timer(resolve_device(device).device);
    if (kind == DeviceKind::Cuda) {
#if PINSCOPE_HAVE_CUDA
        return open_cuda_copy_timer(cuda_ordinal(device));
#else
        throw DeviceError("device " + device + ": " + kNoCudaSupport + "; use --device emulated");
#endif
    }
    return std::make_unique<EmulatedCopyTimer>(load_profile(emulated_profile(device)));
}

}  // namespace pinscope
