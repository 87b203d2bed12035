// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/CpuList.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <utility>

namespace pinscope {

std::string cpu_list_to_string(const std::vector<int>& cpus) {
    std::string text;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t last = i;
        while (last + 1 < cpus.size() && cpus[last + 1] == cpus[last] + 1) ++last;
        if (!text.empty()) text += ',';
        text += std::to_string(cpus[i]);
        if (last > i) text += '-' + std::to_string(cpus[last]);
        i = last + 1;
    }
    return text;
}

std::optional<std::vector<int>> parse_cpu_list(const std::string& text) {
    constexpr int kMaxCpu = 65535;
    const auto number = [](std::string_view part, int& out) {
        const auto result = std::from_chars(part.data(), part.data() + part.size(), out);
        return !part.empty() && result.ec == std::errc() && result.ptr == part.data() + part.size() && out >= 0 &&
               out <= kMaxCpu;
    };
    // Ranges are merged before they are expanded, so that "0-65535" given 20000 times holds
    // 65536 CPUs, not 20000 copies of them.
    std::vector<std::pair<int, int>> ranges;
    std::string_view rest(text);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (comma != std::string_view::npos && rest.empty()) return std::nullopt;  // trailing comma
        const std::size_t dash = part.find('-');
        int first = 0;
        int last = 0;
        if (dash == std::string_view::npos) {
            if (!number(part, first)) return std::nullopt;
            last = first;
        } else if (!number(part.substr(0, dash), first) || !number(part.substr(dash + 1), last) || last < first) {
            return std::nullopt;
        }
        ranges.emplace_back(first, last);
    }
    if (ranges.empty()) return std::nullopt;
    std::sort(ranges.begin(), ranges.end());
    std::vector<int> cpus;
    for (const auto& [first, last] : ranges)
        for (int cpu = cpus.empty() ? first : std::max(first, cpus.back() + 1); cpu <= last; ++cpu) cpus.push_back(cpu);
    return cpus;
}

}  // namespace pinscope
