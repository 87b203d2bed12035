// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every CUDA runtime call in pinscope goes through cuda_call: a failure becomes a DeviceError that
// names the call, the device and the error, e.g.
//   "cudaMemcpyAsync failed on cuda:0 (NVIDIA H200, 0000:19:00.0): cudaErrorInvalidValue: invalid argument".
// Tests can make a named call fail (inject_cuda_failure) to prove that a run stops cleanly.
#include <cuda_runtime_api.h>

#include <string>

#include "engine/device/Device.h"

namespace pinscope {

// "cuda:0 (NVIDIA H200, 0000:19:00.0)"; "cuda:7" when the driver cannot say more.
std::string cuda_device_label(int ordinal);

[[noreturn]] void throw_cuda_error(const char* call, int ordinal, cudaError_t error);

// Test hook: the (skip + 1)-th call named `call` from now on does not run and returns `error`.
void inject_cuda_failure(const std::string& call, int skip, cudaError_t error = cudaErrorLaunchFailure);
void clear_cuda_failure();
// True (once) when the injected failure is due for this call; cheap when nothing is injected.
bool cuda_failure_due(const char* call, cudaError_t& error);

// Runs `call` (a lambda returning cudaError_t) unless an injected failure is due; throws on error.
template <class Call>
void cuda_call(const char* name, int ordinal, Call&& call) {
    cudaError_t error = cudaSuccess;
    if (!cuda_failure_due(name, error)) error = call();
    if (error != cudaSuccess) {
        (void)cudaGetLastError();  // clear a non-sticky error so the next call is not blamed for it
        throw_cuda_error(name, ordinal, error);
    }
}

}  // namespace pinscope
