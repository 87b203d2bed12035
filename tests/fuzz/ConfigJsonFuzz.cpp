// SPDX-License-Identifier: GPL-3.0-or-later
// A configuration file: read, parsed, checked as a run checks it. Bad input must come out as a
// ConfigError with a short printable message; a configuration that loads must survive a round trip.
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/numa/NumaPlan.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

#include <nlohmann/json.hpp>

using namespace pinscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::InputAsFile file;
    const std::string& path = file.write(data, size);
    LoaderConfig config;
    try {
        config = load_config_file(path);
    } catch (const ConfigError& error) {
        fuzz::check_message(error.what());
        return 0;
    }
    fuzz::require(config_from_json(to_json(config)) == config, "to_json then config_from_json gives the same config");
    for (const ConfigIssue& issue : find_run_issues(config)) fuzz::check_message(issue.message());
    (void)describe_changes(LoaderConfig{}, config);
    return 0;
}
