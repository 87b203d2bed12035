// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `pinscope-cli validate` says about its cells: each cell's error (emulated against real),
// the share within 10 % and 15 %, and for every pair of cells that differ in one setting whether
// the emulated device agrees with the real one on which is faster.
#include <cstddef>
#include <optional>
#include <vector>

#include "engine/validate/HostReading.h"
#include "engine/validate/SteadyRate.h"
#include "engine/validate/ValidationCells.h"

namespace pinscope {

// Two rates closer than this (relative to the faster) are a tie: no side is faster.
inline constexpr double kTieShare = 0.03;

struct CellRates {
    double real = 0;      // batches/s on the device validated against (the GPU): the median of its runs
    double emulated = 0;  // batches/s on the emulated device
    // How often the cell ran on the real device, and the spread of those runs, (fastest - slowest)
    // / median; 0 with one run.
    std::size_t real_count = 1;
    double real_spread = 0;
    double real_slowest = 0;  // the slowest and fastest of those runs
    double real_fastest = 0;
    // The host read just before the cell's runs on the real device (a GPU): how far it had moved.
    std::optional<HostReading> host = std::nullopt;
    // The host's work per batch during the cell (load and collate, steady_figures), in us: on the
    // real device the median of its runs. 0 where not measured (files written before it was).
    double real_host_us = 0;
    double emulated_host_us = 0;
    // Each stage's time per batch during the cell (steady_figures), on the real device the median
    // of its runs; empty where not measured (a recorded real device).
    StageTimes real_stages = {};
    StageTimes emulated_stages = {};
    // The consumer's time per batch in no traced stage (steady_figures), in us, on the real device
    // the median of its runs; 0 where not measured.
    double real_consumer_untraced_us = 0;
    double emulated_consumer_untraced_us = 0;
};

// The host readings the cells have, in order.
std::vector<HostReading> host_readings(const std::vector<CellRates>& rates);

// The median of one cell's runs on the real device, with their spread.
CellRates real_runs(const std::vector<double>& runs, double emulated);

// Whether |share| is at most `line` (0.10: within 10 %), with room for rounding: what "within"
// means throughout validate.
bool within_share(double share, double line);

// (emulated - real) / real; nullopt when the real rate is not above 0.
std::optional<double> cell_error(const CellRates& rates);
// How much faster the emulated host worked per batch than the real one during the cell, as
// cell_error reads for batches/s: real_host_us / emulated_host_us - 1; nullopt without both.
std::optional<double> host_stage_error(const CellRates& rates);

// Which of two rates is faster: -1 the first, +1 the second, 0 a tie (within kTieShare).
int faster_of(double first, double second);

// Which of two cells the real device ran faster: faster_of on their medians, but 0 when both ran
// more than once and their runs overlap (the slowest run of the faster cell below the fastest of
// the other): the real device itself did not tell them apart.
int real_faster_of(const CellRates& first, const CellRates& second);
bool real_runs_overlap(const CellRates& first, const CellRates& second);

struct PairVerdict {
    CellPair pair;
    int real = 0;      // real_faster_of
    int emulated = 0;  // faster_of on the emulated rates
    bool real_overlap = false;  // the real runs of the two cells overlap (real is 0)
    // Both name the same cell; a real tie is left out of the agreement (either answer fits it).
    bool agree() const { return real == emulated; }
    bool counted() const { return real != 0; }
};

struct ValidationSummary {
    std::size_t cells = 0;        // cells with a real rate above 0 (an error)
    std::size_t within_10 = 0;    // |error| <= 10 %
    std::size_t within_15 = 0;    // |error| <= 15 %
    std::vector<PairVerdict> pairs;
    std::size_t pairs_counted = 0;  // pairs whose real rates are not a tie
    std::size_t pairs_agreeing = 0; // of those, the emulated device names the same faster cell
    std::size_t real_ties = 0;      // left out: medians within kTieShare, or runs that overlap
    std::size_t real_overlaps = 0;  // of those, the runs overlap
    // With more than one run per cell on the real device: the cells whose runs spread by at most
    // 10 % (the real device repeating itself within the tolerance the cells are held to), and the
    // median of the cells' spreads.
    bool repeated = false;
    std::size_t real_within_10 = 0;
    double median_real_spread = 0;
    // Cells with both devices' host work per batch; of those, the ones whose host stages are
    // within 10 % of each other, the ones off by more than 10 % in batches/s, and of these, how
    // many had the host off by more than 10 % the same way.
    std::size_t host_cells = 0;
    std::size_t host_within_10 = 0;
    std::size_t off_cells = 0;
    std::size_t off_with_host_off_the_same_way = 0;
};

// `rates[k]` belongs to cells[k].
ValidationSummary summarize_validation(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates);

}  // namespace pinscope
