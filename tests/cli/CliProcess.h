// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs the built pinscope-cli as a child process and captures what it says and how it exits.
#include <sys/types.h>

#include <csignal>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/TempDir.h"

namespace pinscope::test {

struct CliResult {
    int exit_code = -1;  // 128 + the signal when one ended it
    std::string out;
    std::string err;
    bool timed_out = false;  // killed at the timeout
    std::optional<std::chrono::milliseconds> exit_after_interrupt;  // from the interrupt to the exit
};

struct CliRunOptions {
    std::chrono::milliseconds timeout{20000};
    // Send `interrupt_signal` this long after the start, once the program catches it (so that it is
    // the program's handler, not the default action, that the signal meets).
    std::optional<std::chrono::milliseconds> interrupt_after;
    // Or once the program's standard error holds this text: at a point of its run, not a time.
    std::optional<std::string> interrupt_on_err;
    int interrupt_signal = SIGINT;
};

// Runs PINSCOPE_CLI_PATH with `args`.
CliResult run_cli(const std::vector<std::string>& args, const CliRunOptions& options = {});
// Starts PINSCOPE_CLI_PATH with `args`, its output thrown away, and returns its pid (throws if it
// cannot); the caller waits for it.
pid_t start_cli(const std::vector<std::string>& args);


std::string read_file(const std::string& path);

// The sample topologies (resources/topologies).
inline const std::string kTopologies = PINSCOPE_TOPOLOGIES_DIR;

}  // namespace pinscope::test
