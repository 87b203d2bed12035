// SPDX-License-Identifier: GPL-3.0-or-later
// The size and number texts of the command line (--pinned-budget 1.5GiB, --min-size 4K,
// --sample-shape 3x224x224, --workers 0,4,8): parsed or refused, never wrapped or overflowed.
#include <cmath>
#include <string>

#include "app/cli/ConfigFlags.h"
#include "engine/export/ExportFormat.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

using namespace pinscope;
using namespace pinscope::cli;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (const auto bytes = parse_size(text)) {
        fuzz::check_message(format_size(*bytes));
        fuzz::check_message(format_size_rounded(*bytes));
    }
    if (const auto number = parse_number(text)) fuzz::require(std::isfinite(*number), "numbers are finite");
    (void)parse_unsigned(text);
    if (const auto shape = parse_shape(text)) fuzz::require(!shape->empty(), "a shape has a dimension");
    for (const std::string& item : split_list(text)) (void)parse_size(item);
    return 0;
}
