// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How far the real device moved between two validate calls of the same cells (`validate
// --earlier FILE`): the ceiling a profile meets. The emulated device gives a cell the same figure
// in every call; a GPU does not (on an H200 VM on 2026-12-03, 24 of 40 cells run eleven minutes
// apart were within 10 % of themselves), and where a cell's two calls are further apart than
// 1.1 / 0.9, no figure is within 10 % of both.
#include <cstddef>
#include <vector>

#include "engine/validate/RecordedValidation.h"
#include "engine/validate/ValidationReport.h"

namespace pinscope {

struct CallDrift {
    std::size_t cells = 0;      // cells with a real rate above 0 in both calls
    std::size_t within_10 = 0;  // this call's real rate within 10 % of the earlier call's
    std::size_t within_15 = 0;
    double median_drift = 0;    // the median of |this call's / the earlier call's - 1|
    std::size_t beyond_any_figure = 0;  // cells no single figure is within 10 % of in both calls
    // This call's emulated rate within 10 % of both calls' real rates, and of either.
    std::size_t model_within_10_of_both = 0;
    std::size_t model_within_10_of_either = 0;
    // Pairs that differ in one setting and that both calls tell apart (real_faster_of), and of
    // those, the ones both calls name the same faster cell of.
    std::size_t pairs_counted = 0;
    std::size_t pairs_agreeing = 0;
};

// `earlier`: the earlier call, read back; `cells` and `rates`: this call's (rates[k] belongs to
// cells[k]). The first cells.size() cells of `earlier` must be these: throws std::invalid_argument
// saying which cell differs, or that the earlier call has fewer.
CallDrift call_drift(const RecordedValidation& earlier, const std::vector<ValidationCell>& cells,
                     const std::vector<CellRates>& rates);

// Whether `earlier` begins with `cells` (their drawn settings and pairs): the index of the first
// cell that differs, or cells.size() where none does. A shorter `earlier` differs at its end.
std::size_t first_differing_cell(const RecordedValidation& earlier, const std::vector<ValidationCell>& cells);

}  // namespace pinscope
