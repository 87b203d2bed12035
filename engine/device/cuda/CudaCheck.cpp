// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/cuda/CudaCheck.h"

#include <atomic>
#include <mutex>

namespace pinscope {
namespace {

struct InjectedFailure {
    std::mutex mutex;
    std::atomic<bool> armed{false};
    std::string call;
    int remaining_skips = 0;
    cudaError_t error = cudaSuccess;
};

InjectedFailure& injected() {
    static InjectedFailure failure;
    return failure;
}

}  // namespace

std::string cuda_device_label(int ordinal) {
    std::string label = "cuda:" + std::to_string(ordinal);
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
        (void)cudaGetLastError();
        return label;
    }
    char bus_id[32] = {};
    const bool have_bus = cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) == cudaSuccess;
    if (!have_bus) (void)cudaGetLastError();
    return label + " (" + prop.name + (have_bus ? std::string(", ") + bus_id : std::string()) + ")";
}

void throw_cuda_error(const char* call, int ordinal, cudaError_t error) {
    throw DeviceError(std::string(call) + " failed on " + cuda_device_label(ordinal) + ": " + cudaGetErrorName(error) +
                      ": " + cudaGetErrorString(error));
}

void inject_cuda_failure(const std::string& call, int skip, cudaError_t error) {
    InjectedFailure& failure = injected();
    std::lock_guard lock(failure.mutex);
    failure.call = call;
    failure.remaining_skips = skip;
    failure.error = error;
    failure.armed.store(true, std::memory_order_release);
}

void clear_cuda_failure() {
    InjectedFailure& failure = injected();
    std::lock_guard lock(failure.mutex);
    failure.armed.store(false, std::memory_order_release);
}

bool cuda_failure_due(const char* call, cudaError_t& error) {
    InjectedFailure& failure = injected();
    if (!failure.armed.load(std::memory_order_acquire)) return false;
    std::lock_guard lock(failure.mutex);
    if (!failure.armed.load(std::memory_order_relaxed) || failure.call != call) return false;
    if (failure.remaining_skips-- > 0) return false;
    failure.armed.store(false, std::memory_order_relaxed);
    error = failure.error;
    return true;
}

}  // namespace pinscope
