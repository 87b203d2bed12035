// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A validation's CSV read back (`pinscope-cli validate --against FILE`): each cell's configuration
// and what the real device ran it at, so that a profile can be checked against a GPU's figures on
// a machine without that GPU. The real rates are taken as written; the emulated ones are left at 0
// for the caller to run.
#include <string>
#include <vector>

#include "engine/validate/ValidationReport.h"

namespace pinscope {

inline constexpr std::size_t kMaxRecordedCells = 1000;

struct RecordedValidation {
    std::vector<ValidationCell> cells;
    std::vector<CellRates> rates;  // rates[k] belongs to cells[k]
};

// `text`: what validate --csv wrote (files of before real_runs and real_slowest were written are
// read too: one run each; so are those without the host_ columns: no host readings). Throws
// ConfigError naming the line and column, and what is allowed, for anything else: an unknown
// header, a value its column does not allow, a configuration validation refuses, more than
// kMaxRecordedCells cells or fewer than two.
RecordedValidation parse_validation_csv(const std::string& text);

}  // namespace pinscope
