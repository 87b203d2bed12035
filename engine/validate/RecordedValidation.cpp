// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/RecordedValidation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/config/ConfigJson.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"
#include "engine/validate/ValidationCsv.h"

namespace pinscope {
namespace {

using nlohmann::json;

// The columns every validate CSV has had, and those added later (optional).
constexpr const char* kRequired[] = {"cell",         "pair_of",      "changed",          "batch_size",
                                     "sample_shape", "dtype",        "cpu_us_per_sample", "num_workers",
                                     "prefetch_factor", "pin_memory", "pin_mode",         "non_blocking",
                                     "gpu_us_per_batch", "real_batches_per_s"};
constexpr const char* kRealRuns[] = {"real_runs", "real_spread_percent", "real_slowest", "real_fastest"};
constexpr const char* kHost[] = {"host_fill_gb_per_s", "host_first_touch_gb_per_s", "host_free_16mib_us"};
constexpr const char* kHostPin = "host_pin_gb_per_s";  // read from 2026-11-27
constexpr const char* kRealHostWork = "real_host_us_per_batch";

constexpr std::size_t kMaxDimensions = 8;  // LoaderConfig's sample_shape

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    return fields;
}

class Row {
public:
    Row(std::size_t line, const std::map<std::string, std::size_t>& columns, std::vector<std::string> fields)
        : line_(line), columns_(columns), fields_(std::move(fields)) {}

    bool has(const std::string& column) const { return columns_.count(column) > 0; }
    const std::string& text(const std::string& column) const { return fields_.at(columns_.at(column)); }
    [[noreturn]] void reject(const std::string& column, const std::string& allowed) const {
        throw ConfigError(ConfigIssue{where(column), "'" + printable(text(column), kEchoChars - 10) + "'", allowed});
    }
    double number(const std::string& column, double lo, double hi, const std::string& allowed) const {
        const std::string& t = text(column);
        double value = 0;
        const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (error != std::errc() || end != t.data() + t.size() || !std::isfinite(value) || value < lo || value > hi)
            reject(column, allowed);
        return value;
    }
    std::uint64_t whole(const std::string& column, std::uint64_t lo, std::uint64_t hi, const std::string& allowed) const {
        const std::string& t = text(column);
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (error != std::errc() || end != t.data() + t.size() || value < lo || value > hi) reject(column, allowed);
        return value;
    }
    // A number for the configuration, whose field table says what it allows.
    double setting(const std::string& column) const {
        return number(column, -1e300, 1e300, "a number (the configuration's " + column + ")");
    }
    std::string where(const std::string& column) const { return "line " + std::to_string(line_) + ", " + column; }

private:
    std::size_t line_;
    const std::map<std::string, std::size_t>& columns_;
    std::vector<std::string> fields_;
};

std::optional<CellSetting> setting_named(const std::string& name) {
    for (int s = 0; s < kCellSettingCount; ++s)
        if (name == to_string(static_cast<CellSetting>(s))) return static_cast<CellSetting>(s);
    return std::nullopt;
}

// The cell's configuration, through the one field table: what the configuration file would say.
LoaderConfig config_of(const Row& row) {
    json fields = json::object();
    fields["batch_size"] = row.setting("batch_size");
    std::vector<std::uint64_t> shape;
    std::istringstream dims(row.text("sample_shape"));
    for (std::string dim; std::getline(dims, dim, 'x');) {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(dim.data(), dim.data() + dim.size(), value);
        if (error != std::errc() || end != dim.data() + dim.size() || value == 0 || value > UINT32_MAX)
            row.reject("sample_shape", "dimensions such as 3x224x224");
        shape.push_back(value);
        if (shape.size() > kMaxDimensions) break;  // one past what the field table allows: it says so
    }
    if (shape.empty()) row.reject("sample_shape", "dimensions such as 3x224x224");
    fields["sample_shape"] = shape;
    fields["dtype"] = row.text("dtype");
    fields["cpu_us_per_sample"] = row.setting("cpu_us_per_sample");
    fields["num_workers"] = row.setting("num_workers");
    if (!row.text("prefetch_factor").empty()) fields["prefetch_factor"] = row.setting("prefetch_factor");
    const auto on_off = [&](const char* column) {
        if (row.text(column) != "on" && row.text(column) != "off") row.reject(column, "on or off");
        return row.text(column) == "on";
    };
    fields["pin_memory"] = on_off("pin_memory");
    if (!row.text("pin_mode").empty()) fields["pin_mode"] = row.text("pin_mode");
    fields["non_blocking"] = on_off("non_blocking");
    fields["gpu_us_per_batch"] = row.setting("gpu_us_per_batch");
    const auto at_line = [&](ConfigIssue issue) {
        issue.field = row.where(issue.field);
        return ConfigError(std::move(issue));
    };
    LoaderConfig config;
    try {
        config = config_from_json(fields);
    } catch (const ConfigError& error) {
        throw at_line(error.issue());
    }
    const std::vector<ConfigIssue> issues = cell_config_issues(config);
    if (!issues.empty()) throw at_line(issues.front());
    return config;
}

}  // namespace

RecordedValidation parse_validation_csv(const std::string& text) {
    std::istringstream in(text);
    std::string header;
    if (!std::getline(in, header)) throw ConfigError(ConfigIssue{"line 1", "", "validate's CSV header"});
    if (!header.empty() && header.back() == '\r') header.pop_back();
    std::map<std::string, std::size_t> columns;
    const std::vector<std::string> names = split(header);
    for (std::size_t i = 0; i < names.size(); ++i) columns[names[i]] = i;
    const std::string expected = std::string("validate's CSV header (") + kValidationCsvHeader + ")";
    for (const char* column : kRequired)
        if (!columns.count(column) || columns.size() != names.size())
            throw ConfigError(ConfigIssue{"line 1", "'" + printable(header, kEchoChars - 10) + "'", expected});
    const auto has_all = [&](const auto& wanted) {
        return std::all_of(std::begin(wanted), std::end(wanted), [&](const char* c) { return columns.count(c) > 0; });
    };
    const bool repeated = has_all(kRealRuns);
    const bool host_read = has_all(kHost);

    RecordedValidation recorded;
    std::string line;
    for (std::size_t number = 2; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> fields = split(line);
        if (fields.size() != names.size())
            throw ConfigError(ConfigIssue{"line " + std::to_string(number), "a line of " + std::to_string(fields.size()) + " fields",
                                          std::to_string(names.size()) + " fields, as the header has"});
        if (recorded.cells.size() == kMaxRecordedCells)
            throw ConfigError(ConfigIssue{"line " + std::to_string(number), "more cells",
                                          "at most " + std::to_string(kMaxRecordedCells) + " cells"});
        const Row row(number, columns, std::move(fields));
        const std::size_t index = recorded.cells.size();
        row.whole("cell", index + 1, index + 1, "the cells numbered from 1 in order: " + std::to_string(index + 1) + " here");
        ValidationCell cell{config_of(row)};
        if (!row.text("pair_of").empty()) {
            cell.pair_of = static_cast<int>(row.whole("pair_of", 1, index, "the number of a cell before it")) - 1;
            const std::optional<CellSetting> changed = setting_named(row.text("changed"));
            if (!changed) row.reject("changed", "the setting the pair changed, such as num_workers");
            cell.changed = *changed;
        }
        CellRates rates;
        rates.real = row.number("real_batches_per_s", 0, 1e9, "batches per second, 0 or more");
        if (repeated && !row.text("real_runs").empty() && !row.text("real_spread_percent").empty()) {
            rates.real_count = row.whole("real_runs", 1, 1000, "a number of runs from 1 to 1000");
            rates.real_spread = row.number("real_spread_percent", 0, 1e6, "a percentage, 0 or more") / 100;
            rates.real_slowest = row.number("real_slowest", 0, 1e9, "batches per second, 0 or more");
            rates.real_fastest = row.number("real_fastest", 0, 1e9, "batches per second, 0 or more");
        }
        if (host_read && !row.text("host_fill_gb_per_s").empty()) {
            HostReading host;
            host.fill_gb_per_s = row.number("host_fill_gb_per_s", 0, 1e6, "GB/s, 0 or more");
            host.first_touch_gb_per_s = row.number("host_first_touch_gb_per_s", 0, 1e6, "GB/s, 0 or more");
            host.free_us = row.number("host_free_16mib_us", 0, 1e9, "microseconds, 0 or more");
            if (row.has(kHostPin) && !row.text(kHostPin).empty())
                host.pin_gb_per_s = row.number(kHostPin, 0, 1e6, "GB/s, 0 or more");
            rates.host = host;
        }
        if (columns.count(kRealHostWork) > 0 && !row.text(kRealHostWork).empty())
            rates.real_host_us = row.number(kRealHostWork, 0, 1e12, "microseconds, 0 or more");
        recorded.cells.push_back(std::move(cell));
        recorded.rates.push_back(rates);
    }
    if (recorded.cells.size() < 2)
        throw ConfigError(ConfigIssue{"cells", std::to_string(recorded.cells.size()) + " in the file", "two cells or more"});
    return recorded;
}

}  // namespace pinscope
