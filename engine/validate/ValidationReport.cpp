// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/ValidationReport.h"

#include <algorithm>
#include <cmath>

namespace pinscope {

std::optional<double> cell_error(const CellRates& rates) {
    if (!(rates.real > 0) || !std::isfinite(rates.emulated)) return std::nullopt;
    return (rates.emulated - rates.real) / rates.real;
}

int faster_of(double first, double second) {
    const double faster = std::max(first, second);
    if (!(faster > 0) || std::abs(first - second) < kTieShare * faster) return 0;
    return first > second ? -1 : 1;
}

ValidationSummary summarize_validation(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates) {
    ValidationSummary summary;
    for (std::size_t k = 0; k < cells.size() && k < rates.size(); ++k) {
        const std::optional<double> error = cell_error(rates[k]);
        if (!error) continue;
        ++summary.cells;
        // A hair of slack for rates that sit exactly on the line in decimal but not in binary.
        if (std::abs(*error) <= 0.10 + 1e-12) ++summary.within_10;
        if (std::abs(*error) <= 0.15 + 1e-12) ++summary.within_15;
    }
    for (const CellPair& pair : one_setting_pairs(cells)) {
        if (pair.second >= rates.size()) continue;
        const CellRates& a = rates[pair.first];
        const CellRates& b = rates[pair.second];
        if (!(a.real > 0 && b.real > 0 && a.emulated > 0 && b.emulated > 0)) continue;  // a cell that did not run
        PairVerdict verdict{pair, faster_of(a.real, b.real), faster_of(a.emulated, b.emulated)};
        summary.pairs.push_back(verdict);
        if (!verdict.counted()) {
            ++summary.real_ties;
            continue;
        }
        ++summary.pairs_counted;
        if (verdict.agree()) ++summary.pairs_agreeing;
    }
    return summary;
}

}  // namespace pinscope
