// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What pinscope-cli's exit status means, and the error that carries bad input to exit 2.
#include <stdexcept>
#include <string>

#include "engine/config/ConfigError.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {

inline constexpr const char* kProgram = "pinscope-cli";

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the run or a file failed: device error, run error, write error
inline constexpr int kExitUsage = 2;    // bad input: flag, value, config file, configuration
// A run stopped by SIGINT or SIGTERM exits 128 + the signal (130, 143) once its outputs are written:
// app::InterruptSignals::exit_status().

// Bad input; the message names the flag or field, the value and what is allowed.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "--workers: 'x' is not allowed; expected ...", the value printable and cut short (ConfigIssue).
[[noreturn]] inline void reject_flag(const std::string& flag, const std::string& value, const std::string& allowed) {
    // Cut short enough that the quotes survive the message's own bound.
    throw UsageError(ConfigIssue{flag, "'" + printable(value, kEchoChars - 10) + "'", allowed}.message());
}

}  // namespace pinscope::cli
