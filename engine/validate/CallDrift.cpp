// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/CallDrift.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/metrics/Median.h"

namespace pinscope {

namespace {

bool within(double figure, double real, double line) { return within_share(figure / real - 1, line); }

}  // namespace

std::size_t first_differing_cell(const RecordedValidation& earlier, const std::vector<ValidationCell>& cells) {
    for (std::size_t k = 0; k < cells.size(); ++k) {
        if (k >= earlier.cells.size()) return k;
        const ValidationCell& then = earlier.cells[k];
        const ValidationCell& now = cells[k];
        if (!differing_settings(then.config, now.config).empty() ||
            then.pair_of != now.pair_of || (now.pair_of >= 0 && then.changed != now.changed))
            return k;
    }
    return cells.size();
}

CallDrift call_drift(const RecordedValidation& earlier, const std::vector<ValidationCell>& cells,
                     const std::vector<CellRates>& rates) {
    if (rates.size() != cells.size()) throw std::invalid_argument("call_drift: a rate for each cell");
    if (const std::size_t k = first_differing_cell(earlier, cells); k < cells.size())
        throw std::invalid_argument(k >= earlier.cells.size()
                                        ? "the earlier call has " + std::to_string(earlier.cells.size()) +
                                              " cells, this one " + std::to_string(cells.size())
                                        : "cell " + std::to_string(k + 1) + " is not the earlier call's cell " +
                                              std::to_string(k + 1));
    CallDrift drift;
    std::vector<double> drifts;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        const double then = earlier.rates[k].real;
        const double now = rates[k].real;
        if (!(then > 0) || !(now > 0)) continue;
        ++drift.cells;
        drift.within_10 += within(now, then, 0.10);
        drift.within_15 += within(now, then, 0.15);
        drifts.push_back(std::abs(now / then - 1));
        // A figure within 10 % of both lies in [0.9 max, 1.1 min].
        drift.beyond_any_figure += (1 - 0.10) * std::max(then, now) > (1 + 0.10) * std::min(then, now);
        const double model = rates[k].emulated;
        const bool near_then = within(model, then, 0.10);
        const bool near_now = within(model, now, 0.10);
        drift.model_within_10_of_both += near_then && near_now;
        drift.model_within_10_of_either += near_then || near_now;
    }
    if (!drifts.empty()) drift.median_drift = median(std::move(drifts));
    for (const CellPair& pair : one_setting_pairs(cells)) {
        const int then = real_faster_of(earlier.rates[pair.first], earlier.rates[pair.second]);
        const int now = real_faster_of(rates[pair.first], rates[pair.second]);
        if (then == 0 || now == 0) continue;
        ++drift.pairs_counted;
        drift.pairs_agreeing += then == now;
    }
    return drift;
}

}  // namespace pinscope
