// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cells `pinscope-cli validate` runs on a GPU and on the emulated device: configurations
// drawn at random, but deterministically from a seed, over the space users run in. They are drawn
// in pairs whose second cell changes one setting of the first, so that every pair asks whether
// the emulated device knows which of two configurations is faster.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/config/ConfigError.h"
#include "engine/config/LoaderConfig.h"

namespace pinscope {

// The ranges cells are drawn from.
inline constexpr std::uint64_t kCellMinBatchBytes = 1'000'000;    // 1 MB
inline constexpr std::uint64_t kCellMaxBatchBytes = 256'000'000;  // 256 MB
inline constexpr std::uint32_t kCellMaxBatchSize = 1024;          // samples per batch
inline constexpr std::uint32_t kCellMaxWorkers = 8;
inline constexpr std::uint32_t kCellMaxPrefetch = 4;
inline constexpr double kCellMaxCpuUsPerSample = 500;
inline constexpr double kCellMaxCpuUsPerBatch = 50'000;  // CPU work per batch, per worker, at most 50 ms
inline constexpr double kCellMaxGpuUs = 20'000;          // kernel time, at most 20 ms
// Batches in flight (workers x prefetch) hold at most this much memory, so that a cell fits a
// small machine's pinned budget as well as a server's.
inline constexpr std::uint64_t kCellMaxBytesInFlight = 2ull << 30;

// The settings a cell draws; a pair differs in exactly one of them.
enum class CellSetting : std::uint8_t {
    BatchSize, Dtype, SampleBytes, CpuUs, Workers, Prefetch, PinMemory, PinMode, NonBlocking, GpuUs
};
inline constexpr int kCellSettingCount = 10;
const char* to_string(CellSetting setting);  // the LoaderConfig field's JSON key ("num_workers")

// The settings in which two configurations differ, as PyTorch applies them (prefetch only with
// workers, pin_mode only with pin_memory on).
std::vector<CellSetting> differing_settings(const LoaderConfig& a, const LoaderConfig& b);

struct ValidationCell {
    LoaderConfig config;
    // For the second cell of a drawn pair: the first cell's index and the setting it changed;
    // -1 for a first cell (and a last, unpaired one).
    int pair_of = -1;
    CellSetting changed = CellSetting::Workers;
};

// `count` cells from `seed`, the same on every machine: each configuration is `base` (its
// device, host, run length, NUMA settings) with the drawn settings, and passes validation against
// a pinned budget of at least kCellMaxBytesInFlight plus a batch.
std::vector<ValidationCell> draw_cells(const LoaderConfig& base, std::size_t count, std::uint64_t seed);

// What validation refuses in a cell's configuration, checked against the pinned budget every cell
// fits rather than this machine's (a cell is the same everywhere).
std::vector<ConfigIssue> cell_config_issues(const LoaderConfig& config);

// Every two cells that differ in exactly one setting: the drawn pairs, and any others.
struct CellPair {
    std::size_t first = 0;
    std::size_t second = 0;
    CellSetting setting = CellSetting::Workers;
};
std::vector<CellPair> one_setting_pairs(const std::vector<ValidationCell>& cells);

// The runs on the device, one group per cell or drawn pair in the cells' order: each cell `repeat`
// times, a pair's two alternating (A B A B), so that the host's drift over seconds falls on both
// alike rather than on the setting they differ in.
struct RunGroup {
    std::size_t first = 0;            // the group's first cell
    std::size_t cells = 1;            // 1, or 2 for a pair
    std::vector<std::size_t> runs;    // cell indices, in the order they run
    bool operator==(const RunGroup&) const = default;
};
std::vector<RunGroup> run_groups(const std::vector<ValidationCell>& cells, std::size_t repeat);

// The setting's value in `config`, as the table shows it: "4", "f32", "3x224x224", "on", "alloc".
std::string setting_value(const LoaderConfig& config, CellSetting setting);

// "64 x 3x224x224 f32 (38.5 MB), cpu 50 us, w4 p2, pinned pool, non_blocking, kernel 2000 us".
std::string describe_cell(const LoaderConfig& config);

}  // namespace pinscope
