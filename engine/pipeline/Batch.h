// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One batch on its way from a worker to the GPU.
#include <cstdint>
#include <optional>

#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/memory/PinnedPool.h"

namespace pinscope {

// A worker's batch comes in new pages, the consumer's own (no workers) from the allocator.
inline BatchMemory batch_memory(const LoaderConfig& config) {
    return config.num_workers > 0 ? BatchMemory::NewPages : BatchMemory::Allocator;
}

struct Batch {
    std::uint64_t index = 0;
    std::size_t bytes = 0;
    PageableBuffer pageable;            // the collated batch, until it is pinned (or registered)
    std::optional<PinnedBlock> pinned;  // where the copy reads from once pinned
    TimeNs ready_at = 0;                // when its last host stage ended
    int written_on_node = -1;           // NUMA node of the thread that collated it, -1 when unknown

    HostSource source() const {
        if (pinned) return {pinned->ptr, bytes, true};
        return {pageable.get(), bytes, false};
    }
};

}  // namespace pinscope
