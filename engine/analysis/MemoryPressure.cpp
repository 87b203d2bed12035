// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/MemoryPressure.h"

#include <algorithm>

#include "engine/config/LoaderConfig.h"
#include "engine/config/PinnedBudget.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

std::uint64_t field(const std::map<std::string, std::uint64_t>& meminfo, const char* name) {
    const auto it = meminfo.find(name);
    return it == meminfo.end() ? 0 : it->second;
}

std::uint64_t above(std::uint64_t most, std::uint64_t now) { return most > now ? most - now : 0; }

std::string size(std::uint64_t bytes) { return memory_text(static_cast<double>(bytes)); }

}  // namespace

MemoryState memory_state(const std::map<std::string, std::uint64_t>& meminfo) {
    MemoryState state;
    state.known = meminfo.contains("MemTotal");
    state.total_bytes = field(meminfo, "MemTotal");
    // Kernels before 3.14 have no MemAvailable: free memory is the closest they say.
    state.available_bytes = meminfo.contains("MemAvailable") ? field(meminfo, "MemAvailable") : field(meminfo, "MemFree");
    state.swap_total_bytes = field(meminfo, "SwapTotal");
    state.swap_free_bytes = field(meminfo, "SwapFree");
    return state;
}

std::uint64_t RunMemory::still_to_take() const { return above(locked_most, locked_now) + above(pageable_most, pageable_now); }

RunMemory run_memory(const LoaderConfig& config, std::uint64_t budget_bytes, std::uint64_t locked_now,
                     std::uint64_t in_flight_batches) {
    RunMemory run;
    run.locked_now = locked_now;
    run.locked_most = config.pin_memory ? std::min(worst_case_pinned(config).bytes(), budget_bytes) : 0;
    if (!(config.pin_memory && config.pin_mode == PinMode::Worker)) {
        const std::uint64_t outstanding = config.num_workers > 0 ? config.max_outstanding() : 0;
        run.pageable_most = (outstanding + 1) * config.batch_bytes();
        run.pageable_now = std::min(run.pageable_most, in_flight_batches * config.batch_bytes());
    }
    return run;
}

MemoryPressure memory_pressure(const MemoryState& now, const MemoryState& at_start, const RunMemory& run) {
    MemoryPressure p;
    p.memory = now;
    p.run = run;
    if (!now.known) return p;
    const std::uint64_t to_take = run.still_to_take();
    p.swapped_bytes = at_start.known ? above(now.swap_used_bytes(), at_start.swap_used_bytes()) : 0;
    p.would_swap = to_take > now.available_bytes;
    p.swapped = p.swapped_bytes >= kSwapGrowthNoted && run.locked_now > 0;
    const std::string swap = now.swap_total_bytes == 0
                                 ? "no swap"
                                 : "swap " + size(now.swap_used_bytes()) + " of " + size(now.swap_total_bytes) + " in use";
    p.figures = size(now.available_bytes) + " available, " + swap + "; the run holds " + size(run.locked_now) +
                " locked and may take " + size(to_take) + " more";
    if (p.would_swap) {
        p.warning = "pinning may push this machine into " + std::string(now.swap_total_bytes == 0 ? "running out of memory" : "swap") +
                    ": the run may still take " + size(to_take) + " (locked up to " + size(run.locked_most) + ", " +
                    size(run.locked_now) + " now; batches in flight up to " + size(run.pageable_most) + ") but only " +
                    size(now.available_bytes) + " is available" +
                    (now.swap_total_bytes == 0 ? ", and there is no swap: the kernel would kill a process or page-locking would fail"
                                               : " without swapping") +
                    "; lower prefetch_factor, num_workers or pinned_budget_bytes";
    } else if (p.swapped) {
        p.warning = "this machine swapped " + size(p.swapped_bytes) + " out during the run (" + swap + ") while the run held " +
                    size(run.locked_now) + " page-locked: locked pages cannot be swapped, so everything else is";
    }
    return p;
}

}  // namespace pinscope
