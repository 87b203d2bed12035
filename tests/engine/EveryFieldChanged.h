// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A configuration whose every field differs from LoaderConfig's default: what the JSON, the field
// table and the change descriptions are checked against.
#include "engine/config/LoaderConfig.h"

namespace pinscope::test {

inline LoaderConfig every_field_changed() {
    LoaderConfig config;
    config.batch_size = 17;
    config.sample_shape = {1, 28, 28};
    config.dtype = DType::U8;
    config.num_workers = 3;
    config.prefetch_factor = 5;
    config.pin_memory = false;
    config.non_blocking = false;
    config.copy_stream = CopyStream::Compute;
    config.in_order = false;
    config.pin_mode = PinMode::Register;
    config.cpu_us_per_sample = 12.5;
    config.gpu_us_per_batch = 0.25;
    config.batches = 1234;
    config.seconds.reset();
    config.device = "cuda:2";
    config.host = HostMode::Real;
    config.pinned_budget_bytes = 1ull << 30;
    config.bind_workers = CpuBinding{CpuBindPolicy::CpuList, {0, 1, 2, 8}};
    config.bind_pin_thread = CpuBinding{CpuBindPolicy::GpuLocal, {}};
    config.bind_consumer = CpuBinding{CpuBindPolicy::Remote, {}};
    config.membind = MemoryPlacement::Interleave;
    config.topology_xml = "2-socket-2-gpu";
    config.gpu_pci_bus_id = "0000:c1:00.0";
    return config;
}

}  // namespace pinscope::test
