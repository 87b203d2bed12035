// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The allowed values of every LoaderConfig field, and PyTorch's rules between fields.
#include <vector>

#include "engine/config/ConfigError.h"
#include "engine/config/LoaderConfig.h"

namespace pinscope {

// Every issue found, in field order; empty when the configuration is valid. Includes the pinned
// budget check: the worst-case page-locked footprint must fit the budget.
std::vector<ConfigIssue> find_config_issues(const LoaderConfig& config);
// Throws ConfigError with the first issue.
void validate(const LoaderConfig& config);

}  // namespace pinscope
