// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPU tests run on a machine with a CUDA GPU and skip, saying why, everywhere else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "engine/device/cuda/CudaDevice.h"
#include "engine/metrics/Median.h"

namespace pinscope::test {

class CudaDeviceTest : public ::testing::Test {
protected:
    void SetUp() override {
        const CudaDeviceList gpus = list_cuda_devices_present();
        if (gpus.devices.empty()) GTEST_SKIP() << "no CUDA GPU here: " << gpus.why_none;
        device = std::make_unique<CudaDevice>(0);
    }
    std::unique_ptr<CudaDevice> device;
};

// Fresh random bytes every call, so a test never passes on stale or zeroed memory.
inline void fill_random(void* data, std::size_t bytes) {
    static std::mt19937_64 engine{std::random_device{}()};
    auto* p = static_cast<unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        const std::uint64_t word = engine();
        std::memcpy(p + i, &word, 8);
    }
    for (; i < bytes; ++i) p[i] = static_cast<unsigned char>(engine());
}

}  // namespace pinscope::test
