// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli run and sweep's argument vector (the input's NUL-separated parts): parsed and
// checked as before a run, without running. Bad input must come out as CLI11's parse error or a
// UsageError, with a short printable message.
#include <cmath>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "app/cli/ConfigFlags.h"
#include "app/cli/ExitCodes.h"
#include "engine/sweep/SweepPlan.h"
#include "engine/text/UntrustedText.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

using namespace pinscope;
using namespace pinscope::cli;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> arguments{"pinscope-cli"};
    std::string part;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            arguments.push_back(part);
            part.clear();
        } else {
            part += static_cast<char>(data[i]);
        }
    }
    arguments.push_back(part);
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());

    CLI::App app("fuzz", "pinscope-cli");
    CLI::App* run = app.add_subcommand("run", "");
    CLI::App* sweep = app.add_subcommand("sweep", "");
    const ConfigFlags run_flags(*run, ConfigFlags::Mode::Run);
    const ConfigFlags sweep_flags(*sweep, ConfigFlags::Mode::Sweep);
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& error) {
        fuzz::check_message(printable(error.what(), 4 * kEchoChars));  // as main.cpp prints it
        return 0;
    }
    try {
        if (run->parsed()) run_flags.validate(run_flags.config());
        if (sweep->parsed()) {
            for (const LoaderConfig& config : expand_sweep(sweep_flags.config(), sweep_flags.sweep_axes()))
                sweep_flags.validate(config);
        }
    } catch (const UsageError& error) {
        fuzz::check_message(error.what());
    }
    return 0;
}
