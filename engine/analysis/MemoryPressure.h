// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// When pinning hurts: whether the memory a run may still lock, plus its batches in flight, fits in
// what the machine can give without swapping, and whether it swapped while the run went.
//
// The rule (README, "When pinning hurts"):
//   locked_most   = worst_case_pinned(config), at most the pinned budget (0 with pin_memory off)
//   pageable_most = (outstanding batches + the consumer's) x batch_bytes; 0 with pin_mode worker,
//                   where workers collate straight into pinned blocks
//   still_to_take = max(0, locked_most - pinned reserved now) + max(0, pageable_most - in flight now x batch_bytes)
//   "would swap"  when still_to_take > MemAvailable: the kernel's estimate of what can be allocated
//                 without swapping (its low watermarks already taken off). With no swap configured
//                 the same shortfall means reclaim, then the OOM killer or a failed lock.
//   "swapped"     when swap in use (SwapTotal - SwapFree) grew by kSwapGrowthNoted or more since
//                 the run started while the run held page-locked memory: measured, not predicted.
#include <cstdint>
#include <map>
#include <string>

namespace pinscope {

struct LoaderConfig;

// Swap growth smaller than this is noise (the kernel swaps out idle pages now and then).
inline constexpr std::uint64_t kSwapGrowthNoted = 64ull << 20;

// The machine's memory, from /proc/meminfo.
struct MemoryState {
    bool known = false;  // /proc/meminfo was read and had MemTotal
    std::uint64_t total_bytes = 0;
    std::uint64_t available_bytes = 0;   // MemAvailable
    std::uint64_t swap_total_bytes = 0;
    std::uint64_t swap_free_bytes = 0;
    std::uint64_t swap_used_bytes() const { return swap_total_bytes > swap_free_bytes ? swap_total_bytes - swap_free_bytes : 0; }
    friend bool operator==(const MemoryState&, const MemoryState&) = default;
};

// From MachineFiles::meminfo()'s fields (bytes by name).
MemoryState memory_state(const std::map<std::string, std::uint64_t>& meminfo);

// What the run holds now and may hold at most.
struct RunMemory {
    std::uint64_t locked_now = 0;      // pinned bytes the pool reserves now
    std::uint64_t locked_most = 0;
    std::uint64_t pageable_now = 0;    // batches in flight x batch_bytes (at most pageable_most)
    std::uint64_t pageable_most = 0;
    std::uint64_t still_to_take() const;
    friend bool operator==(const RunMemory&, const RunMemory&) = default;
};

// The run's memory for `config` with a pinned pool of `budget_bytes`, `locked_now` reserved and
// `in_flight_batches` batches out.
RunMemory run_memory(const LoaderConfig& config, std::uint64_t budget_bytes, std::uint64_t locked_now,
                     std::uint64_t in_flight_batches);

struct MemoryPressure {
    MemoryState memory;              // the last sample
    RunMemory run;
    std::uint64_t swapped_bytes = 0; // swap in use now less at the run's start, when more
    bool would_swap = false;
    bool swapped = false;
    bool warn() const { return would_swap || swapped; }
    std::string figures;             // "12.3 GiB available, swap 0 B of 2 GiB in use; the run may take 1.1 GiB more"
    std::string warning;             // the sentence when warn(), else empty
    friend bool operator==(const MemoryPressure&, const MemoryPressure&) = default;
};

// `at_start`: the machine when the run started. Unknown memory (no /proc/meminfo) never warns.
MemoryPressure memory_pressure(const MemoryState& now, const MemoryState& at_start, const RunMemory& run);

}  // namespace pinscope
