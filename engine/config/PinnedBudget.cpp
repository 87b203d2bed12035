// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/PinnedBudget.h"

#include <unistd.h>

#include <algorithm>

#include "engine/config/LoaderConfig.h"

namespace pinscope {

std::size_t round_up_pow2(std::size_t bytes) {
    std::size_t size = 1;
    while (size < bytes) size <<= 1;
    return size;
}

std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) : 0;
}

std::uint64_t default_pinned_budget() { return physical_memory_bytes() / 4; }

PinnedBound worst_case_pinned(const LoaderConfig& config) {
    if (!config.pin_memory) return {};
    const std::uint64_t page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t bytes = config.batch_bytes();
    const bool cached = config.pin_mode == PinMode::Pool || config.pin_mode == PinMode::Worker;
    // Outstanding batches (each may be pinned already), the batch the consumer is copying, and the
    // batches whose copies the device has not finished yet.
    const std::uint64_t outstanding = config.num_workers > 0 ? config.max_outstanding() : 0;
    return PinnedBound{outstanding + 1 + kMaxBatchesOnDevice,
                       cached ? std::max<std::uint64_t>(round_up_pow2(bytes), page) : (bytes + page - 1) / page * page};
}

}  // namespace pinscope
