// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LoaderConfig to and from JSON. Keys are the LoaderConfig field names; unknown keys, wrong types
// and bad values throw ConfigError naming the key.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/config/LoaderConfig.h"

namespace pinscope {

nlohmann::json to_json(const LoaderConfig& config);
// Starts from `base` (defaults) and applies the keys present in `json`. Does not validate ranges
// across fields; call validate() for that.
LoaderConfig config_from_json(const nlohmann::json& json, const LoaderConfig& base = {});

// Throws ConfigError (field "config") when the file cannot be read or is not JSON.
LoaderConfig load_config_file(const std::string& path, const LoaderConfig& base = {});
// Written whole or not at all. Throws std::runtime_error naming the path on failure.
void save_config_file(const std::string& path, const LoaderConfig& config);

}  // namespace pinscope
