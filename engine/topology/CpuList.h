// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CPU lists as the kernel writes them (cpuset, sysfs) and users type them (bind_workers).
#include <optional>
#include <string>
#include <vector>

namespace pinscope {

// "0-3,8" <-> {0,1,2,3,8}; parse returns nullopt for anything else (empty, negative, reversed range).
std::string cpu_list_to_string(const std::vector<int>& cpus);
std::optional<std::vector<int>> parse_cpu_list(const std::string& text);

}  // namespace pinscope
