// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/Advice.h"

#include <nlohmann/json.hpp>

#include "engine/text/Units.h"

namespace pinscope {

std::string ConfigChange::text() const {
    const nlohmann::json json = nlohmann::json::parse(value, nullptr, false);
    if (key == "pinned_budget_bytes" && json.is_number_unsigned())
        return key + " " + memory_text(static_cast<double>(json.get<std::uint64_t>()));
    if (json.is_boolean()) return key + (json.get<bool>() ? " on" : " off");
    return key + " " + (json.is_string() ? json.get<std::string>() : value);
}

}  // namespace pinscope
