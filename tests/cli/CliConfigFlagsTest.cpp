// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration flags are the field table's (engine/config/ConfigFields.h): each field has its
// flag in run and sweep, whose help says the table's help, key, range and default, and a value
// out of the field's range is refused with the table's range.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "engine/config/ConfigFields.h"
#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

// What `help` says of `flag`: "  --workers N    worker threads ...", with the next line where a
// long flag pushes the description there.
std::string help_line(const std::string& help, const std::string& flag) {
    std::istringstream lines(help);
    std::string found;
    for (std::string line; std::getline(lines, line);) {
        const std::size_t indent = line.find_first_not_of(' ');
        const bool continues = !found.empty() && indent != std::string::npos && indent > 2;
        if (line.starts_with("  " + flag + " ") || continues)
            found += line;
        else if (!found.empty())
            break;
    }
    return found;
}

TEST(CliConfigFlags, EachFieldsFlagSaysTheTablesHelpRangeAndDefault) {
    for (const char* command : {"run", "sweep"}) {
        const CliResult help = run_cli({command, "--help"});
        ASSERT_EQ(help.exit_code, 0) << help.err;
        for (const ConfigField& field : kConfigFields) {
            const std::string line = help_line(help.out, std::string(field.flag));
            SCOPED_TRACE(std::string(command) + " " + std::string(field.flag) + ": " + line);
            ASSERT_FALSE(line.empty()) << help.out;
            EXPECT_NE(line.find(field.value_name), std::string::npos);
            EXPECT_NE(line.find(std::string(field.help)), std::string::npos);
            EXPECT_NE(line.find("(" + std::string(field.key)), std::string::npos);
            EXPECT_NE(line.find("default " + default_text(field) + ")"), std::string::npos);
            if (!range_text(field).empty()) {
                EXPECT_NE(line.find(range_text(field)), std::string::npos);
            }
            for (const FieldChoice& choice : field.choices)
                EXPECT_NE(line.find(std::string(choice.name)), std::string::npos) << choice.name;
        }
    }
}

TEST(CliConfigFlags, AValueOutOfRangeIsRefusedWithTheTablesRange) {
    for (const ConfigField& field : kConfigFields) {
        if (!field.range || field.range->hi_physical_memory) continue;
        const std::string too_large = field.type == FieldType::Number
                                          ? std::to_string(static_cast<std::uint64_t>(field.range->hi) * 2)
                                          : std::to_string(integer_range(field).second + 1);
        const CliResult result = run_cli({"run", std::string(field.flag), too_large});
        SCOPED_TRACE(std::string(field.flag) + " " + too_large + ": " + result.err);
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_NE(result.err.find(std::string(field.flag)), std::string::npos);
        EXPECT_NE(result.err.find(allowed_text(field)), std::string::npos);
    }
}

}  // namespace
}  // namespace pinscope::test
