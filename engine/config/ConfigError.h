// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A configuration value that is not allowed: which field, what was given, what is allowed.
#include <stdexcept>
#include <string>

namespace pinscope {

struct ConfigIssue {
    std::string field;    // "num_workers", "sample_shape[1]"
    std::string value;    // as given
    std::string allowed;  // "an integer from 0 to 256"
    // "num_workers: -1 is not allowed; expected an integer from 0 to 256", printable and bounded
    // (text/UntrustedText.h) however long or strange the value.
    std::string message() const;
    std::string message(const std::string& label) const;  // the same, naming `label` (a flag) instead of the field
};

class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(ConfigIssue issue) : std::runtime_error(issue.message()), issue_(std::move(issue)) {}
    const ConfigIssue& issue() const { return issue_; }

private:
    ConfigIssue issue_;
};

}  // namespace pinscope
