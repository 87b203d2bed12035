// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/ValidationReport.h"

#include <algorithm>
#include <cmath>

#include "engine/metrics/Median.h"

namespace pinscope {

std::optional<double> cell_error(const CellRates& rates) {
    if (!(rates.real > 0) || !std::isfinite(rates.emulated)) return std::nullopt;
    return (rates.emulated - rates.real) / rates.real;
}

std::optional<double> host_stage_error(const CellRates& rates) {
    if (!(rates.real_host_us > 0) || !(rates.emulated_host_us > 0)) return std::nullopt;
    return rates.real_host_us / rates.emulated_host_us - 1;
}

std::vector<HostReading> host_readings(const std::vector<CellRates>& rates) {
    std::vector<HostReading> readings;
    for (const CellRates& r : rates)
        if (r.host) readings.push_back(*r.host);
    return readings;
}

CellRates real_runs(const std::vector<double>& runs, double emulated) {
    CellRates rates;
    rates.emulated = emulated;
    if (runs.empty()) return rates;
    rates.real = median(runs);
    rates.real_count = runs.size();
    const auto [slowest, fastest] = std::minmax_element(runs.begin(), runs.end());
    rates.real_slowest = *slowest;
    rates.real_fastest = *fastest;
    if (rates.real > 0) rates.real_spread = (*fastest - *slowest) / rates.real;
    return rates;
}

int faster_of(double first, double second) {
    const double faster = std::max(first, second);
    if (!(faster > 0) || std::abs(first - second) < kTieShare * faster) return 0;
    return first > second ? -1 : 1;
}

bool real_runs_overlap(const CellRates& first, const CellRates& second) {
    if (first.real_count < 2 || second.real_count < 2) return false;
    return first.real_slowest <= second.real_fastest && second.real_slowest <= first.real_fastest;
}

int real_faster_of(const CellRates& first, const CellRates& second) {
    return real_runs_overlap(first, second) ? 0 : faster_of(first.real, second.real);
}

// The slack is for rates that sit exactly on the line in decimal but not in binary.
bool within_share(double share, double line) { return std::abs(share) <= line + 1e-12; }

ValidationSummary summarize_validation(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates) {
    ValidationSummary summary;
    std::vector<double> spreads;
    for (std::size_t k = 0; k < cells.size() && k < rates.size(); ++k) {
        const std::optional<double> error = cell_error(rates[k]);
        if (!error) continue;
        ++summary.cells;
        spreads.push_back(rates[k].real_spread);
        if (rates[k].real_count > 1) summary.repeated = true;
        if (within_share(rates[k].real_spread, 0.10)) ++summary.real_within_10;
        if (within_share(*error, 0.10)) ++summary.within_10;
        if (within_share(*error, 0.15)) ++summary.within_15;
        const std::optional<double> host = host_stage_error(rates[k]);
        if (!host) continue;
        ++summary.host_cells;
        if (within_share(*host, 0.10)) ++summary.host_within_10;
        if (!within_share(*error, 0.10)) {
            ++summary.off_cells;
            if (!within_share(*host, 0.10) && (*host > 0) == (*error > 0)) ++summary.off_with_host_off_the_same_way;
        }
    }
    if (!spreads.empty()) summary.median_real_spread = median(spreads);
    for (const CellPair& pair : one_setting_pairs(cells)) {
        if (pair.second >= rates.size()) continue;
        const CellRates& a = rates[pair.first];
        const CellRates& b = rates[pair.second];
        if (!(a.real > 0 && b.real > 0 && a.emulated > 0 && b.emulated > 0)) continue;  // a cell that did not run
        PairVerdict verdict{pair, real_faster_of(a, b), faster_of(a.emulated, b.emulated), real_runs_overlap(a, b)};
        summary.pairs.push_back(verdict);
        if (!verdict.counted()) {
            ++summary.real_ties;
            if (verdict.real_overlap) ++summary.real_overlaps;
            continue;
        }
        ++summary.pairs_counted;
        if (verdict.agree()) ++summary.pairs_agreeing;
    }
    return summary;
}

}  // namespace pinscope
