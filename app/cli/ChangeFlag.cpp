// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ChangeFlag.h"

#include <algorithm>
#include <charconv>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/config/ConfigError.h"
#include "engine/config/ConfigFields.h"
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"

namespace pinscope::cli {
namespace {

constexpr const char* kFlag = "--change";
constexpr const char* kForm = "SECONDS:KEY=VALUE, a time inside the run and a configuration file key (pin_memory=false)";

struct Parsed {
    double at_s;
    std::string key;
    nlohmann::json value;
};

Parsed parse(const std::string& text) {
    const std::size_t colon = text.find(':');
    const std::size_t equals = text.find('=', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || equals == std::string::npos) reject_flag(kFlag, text, kForm);
    Parsed parsed{};
    const std::string seconds = text.substr(0, colon);
    const auto [end, error] = std::from_chars(seconds.data(), seconds.data() + seconds.size(), parsed.at_s);
    if (error != std::errc() || end != seconds.data() + seconds.size() || !(parsed.at_s > 0))
        reject_flag(kFlag, text, std::string("a time in seconds above 0 before the colon; ") + kForm);
    parsed.key = text.substr(colon + 1, equals - colon - 1);
    if (find_config_field(parsed.key) == nullptr) reject_flag(kFlag, text, std::string("a configuration key; ") + kForm);
    const std::string value = text.substr(equals + 1);
    // A number, true/false or a JSON string as the configuration file has it; other text as a string.
    parsed.value = nlohmann::json::parse(value, nullptr, false);
    if (parsed.value.is_discarded()) parsed.value = value;
    return parsed;
}

}  // namespace

ChangeFlag::ChangeFlag(CLI::App& command) {
    command.add_option(kFlag, texts_,
                       "reconfigure the run at SECONDS from its start (repeat for several); each change starts a segment "
                       "with its own figures")
        ->type_name("SECONDS:KEY=VALUE");
}

std::vector<TimedChange> ChangeFlag::changes(const LoaderConfig& start) const {
    std::vector<Parsed> parsed;
    for (const std::string& text : texts_) {
        parsed.push_back(parse(text));
        if (start.seconds && parsed.back().at_s >= *start.seconds)
            reject_flag(kFlag, text, "a time before the run's end (--seconds); " + std::string(kForm));
    }
    std::stable_sort(parsed.begin(), parsed.end(), [](const Parsed& a, const Parsed& b) { return a.at_s < b.at_s; });
    std::vector<TimedChange> changes;
    LoaderConfig config = start;
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        try {
            config = config_from_json(nlohmann::json{{parsed[i].key, parsed[i].value}}, config);
            validate(config);
        } catch (const ConfigError& error) {
            throw UsageError(std::string(kFlag) + ": " + error.what());
        }
        // Changes at one time go to the engine together.
        if (!changes.empty() && changes.back().at_s == parsed[i].at_s)
            changes.back().config = config;
        else
            changes.push_back({parsed[i].at_s, config});
    }
    return changes;
}

}  // namespace pinscope::cli
