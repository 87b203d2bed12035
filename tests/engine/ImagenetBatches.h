// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lessons' and the bottleneck scenarios' run: 64 x 3x224x224 float32 (36.8 MiB) batches on the
// emulated device (the H200 profile) for 2.5 s.
#include "engine/config/LoaderConfig.h"

namespace pinscope::test {

inline LoaderConfig imagenet_batches(std::uint32_t workers, bool pin_memory, double cpu_us, double gpu_us) {
    LoaderConfig config;
    config.device = "emulated";  // the figures as the H200 profile predicts them
    config.num_workers = workers;
    config.pin_memory = pin_memory;
    config.cpu_us_per_sample = cpu_us;
    config.gpu_us_per_batch = gpu_us;
    config.seconds = 2.5;
    return config;
}

}  // namespace pinscope::test
