// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The configuration flags that run and sweep share, and how they apply on top of a LoaderConfig:
// the config file first, then each flag given. Values are kept as typed and parsed on use, so that
// every message names the flag, the value and what is allowed (asked of the engine's own checks).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/config/ConfigError.h"
#include "engine/config/LoaderConfig.h"
#include "engine/sweep/SweepPlan.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

struct FlagSpec;

class ConfigFlags {
public:
    enum class Mode { Run, Sweep };  // in a sweep, --workers, --prefetch, --pin-memory, --pin-mode take lists

    // Adds --config and the configuration flags to `command`; keeps a pointer to itself there.
    ConfigFlags(CLI::App& command, Mode mode);
    ConfigFlags(const ConfigFlags&) = delete;
    ConfigFlags& operator=(const ConfigFlags&) = delete;

    // The config file, then every flag given (in a sweep, all but the sweep axes). Not validated.
    // Throws UsageError.
    LoaderConfig config() const;
    // The values of the sweep axes given; throws UsageError.
    SweepAxes sweep_axes() const;
    // validate(), with a failure turned into a UsageError that starts with `context`.
    void validate(const LoaderConfig& config, const std::string& context = "") const;
    // An issue as the user should read it: named after the flag when one set the field.
    std::string describe(const ConfigIssue& issue) const;

private:
    const std::string* given(std::string_view flag) const;

    Mode mode_;
    std::string config_file_;
    std::vector<std::pair<const FlagSpec*, std::string>> given_;
};

// Parsers shared by the flags: each returns nullopt when the text is not of its kind.
std::optional<std::uint64_t> parse_unsigned(const std::string& text);            // "64"
std::optional<double> parse_number(const std::string& text);                     // "2.5", "1e3"
std::optional<bool> parse_on_off(const std::string& text);                       // "on", "off"
std::optional<std::vector<std::uint32_t>> parse_shape(const std::string& text);  // "3x224x224"
std::optional<std::uint64_t> parse_size(const std::string& text);                // "512M", "4G", "1.5GiB"
std::vector<std::string> split_list(const std::string& text);                    // "0,4,8"

}  // namespace pinscope::cli
