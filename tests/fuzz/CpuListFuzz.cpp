// SPDX-License-Identifier: GPL-3.0-or-later
// A CPU list or binding policy (--bind, bind_workers...): parsed within bounds, and what parses
// prints back to text that parses to the same thing.
#include <algorithm>
#include <string>

#include "engine/config/LoaderConfig.h"
#include "engine/topology/CpuList.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

using namespace pinscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto binding = parse_cpu_binding(text);
    if (!binding) return 0;
    fuzz::require(binding->cpus.size() <= 65536, "at most 65536 CPUs");
    fuzz::require(std::is_sorted(binding->cpus.begin(), binding->cpus.end()) &&
                      std::adjacent_find(binding->cpus.begin(), binding->cpus.end()) == binding->cpus.end(),
                  "CPUs ascend without repeats");
    const std::string printed = to_string(*binding);
    fuzz::require(parse_cpu_binding(printed) == binding, "a binding prints to text that parses to it");
    return 0;
}
