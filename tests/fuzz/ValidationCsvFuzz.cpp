// SPDX-License-Identifier: GPL-3.0-or-later
// A validation's CSV read back (`pinscope-cli validate --against FILE`). Bad input must come out as
// a ConfigError with a short printable message; a file that reads must give at least two cells and
// at most kMaxRecordedCells, each a configuration validation accepts, with finite figures.
#include <cmath>
#include <string>

#include "engine/config/ConfigError.h"
#include "engine/validate/RecordedValidation.h"
#include "tests/fuzz/FuzzChecks.h"

using namespace pinscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    RecordedValidation read;
    try {
        read = parse_validation_csv(text);
    } catch (const ConfigError& error) {
        fuzz::check_message(error.what());
        return 0;
    }
    fuzz::require(read.cells.size() >= 2 && read.cells.size() <= kMaxRecordedCells, "two cells or more, and not too many");
    fuzz::require(read.cells.size() == read.rates.size(), "one rate per cell");
    for (std::size_t k = 0; k < read.cells.size(); ++k) {
        fuzz::require(cell_config_issues(read.cells[k].config).empty(), "every cell a valid configuration");
        fuzz::require(read.cells[k].pair_of < static_cast<int>(k), "a pair's first cell comes before it");
        const CellRates& r = read.rates[k];
        fuzz::require(std::isfinite(r.real) && r.real >= 0 && std::isfinite(r.real_spread), "finite figures");
    }
    return 0;
}
