// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ConfigFlags.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/config/ConfigFields.h"
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/numa/NumaPlan.h"
#include "engine/topology/CpuList.h"

namespace pinscope::cli {

using nlohmann::json;

// A flag that sets a field: every field's own flag, and --bind, which sets all three bindings.
struct FlagSpec {
    std::string name;          // "--workers"
    const ConfigField* field;  // what it sets (--bind: bind_workers, and the other two bindings)
    std::string help;          // the table's help, or --bind's own
    std::string note = {};     // after the choices
    void (*to_axis)(SweepAxes& axes, const LoaderConfig& config) = nullptr;  // non-null for the sweep axes
    bool all_bindings = false;
};

namespace {

// A sweep of this many runs of a few seconds each already takes hours.
constexpr std::uint64_t kMaxSweepCombinations = 1000;

// The fields a sweep takes lists of, and where a value goes in SweepAxes.
struct SweepAxis {
    const ConfigField* field;
    void (*to_axis)(SweepAxes& axes, const LoaderConfig& config);
};
constexpr SweepAxis kSweepAxes[] = {
    {&config_field(&LoaderConfig::num_workers),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.workers.push_back(c.num_workers); }},
    {&config_field(&LoaderConfig::prefetch_factor),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.prefetch.push_back(c.prefetch_factor.value_or(0)); }},
    {&config_field(&LoaderConfig::pin_memory),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.pin_memory.push_back(c.pin_memory); }},
    {&config_field(&LoaderConfig::copy_stream),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.copy_stream.push_back(c.copy_stream); }},
    {&config_field(&LoaderConfig::pin_mode),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.pin_mode.push_back(c.pin_mode); }},
    {&config_field(&LoaderConfig::membind),
     [](SweepAxes& axes, const LoaderConfig& c) { axes.membind.push_back(c.membind); }},
};

constexpr const ConfigField& kBindWorkers = config_field(&LoaderConfig::bind_workers);
constexpr const ConfigField& kBindPinThread = config_field(&LoaderConfig::bind_pin_thread);
constexpr const ConfigField& kBindConsumer = config_field(&LoaderConfig::bind_consumer);
constexpr const ConfigField& kBatches = config_field(&LoaderConfig::batches);
constexpr const ConfigField& kSeconds = config_field(&LoaderConfig::seconds);

// --bind sets the three bindings at once; the flag of each overrides it.
FlagSpec bind_all_spec() {
    return {"--bind", &kBindWorkers, "where the workers, the pin thread and the consumer may run",
            std::string(kBindWorkers.flag) + ", " + std::string(kBindPinThread.flag) + " and " +
                std::string(kBindConsumer.flag) + " override it",
            [](SweepAxes& axes, const LoaderConfig& c) { axes.bind.push_back(c.bind_workers); }, true};
}

// Every field's flag from the table, in its order, with --bind before the bindings' own.
const std::vector<FlagSpec>& flag_specs() {
    static const std::vector<FlagSpec> specs = [] {
        std::vector<FlagSpec> list;
        for (const ConfigField& field : kConfigFields) {
            if (&field == &kBindWorkers) list.push_back(bind_all_spec());
            FlagSpec spec{std::string(field.flag), &field, std::string(field.help)};
            for (const SweepAxis& axis : kSweepAxes)
                if (axis.field == &field) spec.to_axis = axis.to_axis;
            list.push_back(std::move(spec));
        }
        return list;
    }();
    return specs;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return text;
}

bool names_field(const FlagSpec& spec, const std::string& field) {
    if (spec.all_bindings && (field == kBindPinThread.key || field == kBindConsumer.key)) return true;
    return field == spec.field->key || field.starts_with(std::string(spec.field->key) + "[");
}

// What the flag takes, as the engine allows it (the field table); the command line writes
// on/off, shapes and sizes its own way.
std::string allowed_text(const FlagSpec& spec) {
    const std::string engine = allowed_text(*spec.field);
    switch (spec.field->type) {
    case FieldType::OnOff: return "on or off";
    case FieldType::Shape: return "dimensions separated by x, such as 3x224x224, each " + engine;
    case FieldType::Size: return "a size in bytes, with an optional suffix such as 512M, 4G or 1.5GiB: " + engine;
    default: return engine;
    }
}

std::optional<json> to_json_value(FieldType type, const std::string& text) {
    switch (type) {
    case FieldType::Integer:
    case FieldType::Size:
        if (const auto value = type == FieldType::Integer ? parse_unsigned(text) : parse_size(text)) return json(*value);
        return std::nullopt;
    case FieldType::Number:
        if (const auto value = parse_number(text)) return json(*value);
        return std::nullopt;
    case FieldType::OnOff:
        if (const auto value = parse_on_off(text)) return json(*value);
        return std::nullopt;
    case FieldType::Shape:
        if (const auto value = parse_shape(text)) return json(*value);
        return std::nullopt;
    case FieldType::Choice:
    case FieldType::Text:
    case FieldType::Binding: return json(text);
    }
    return std::nullopt;
}

// Sets the flag's field from `text`; on failure returns what is allowed.
std::optional<std::string> try_apply(LoaderConfig& config, const FlagSpec& spec, const std::string& text) {
    const auto value = to_json_value(spec.field->type, text);
    if (!value) return allowed_text(spec);
    try {
        json object{{std::string(spec.field->key), *value}};
        if (spec.all_bindings)
            object[std::string(kBindPinThread.key)] = object[std::string(kBindConsumer.key)] = *value;
        config = config_from_json(object, config);
    } catch (const ConfigError&) {
        // Numbers beyond the type's range get the range validate() allows.
        return allowed_text(spec);
    }
    return std::nullopt;
}

// A sweep list's items. --bind takes policies and CPU lists, whose own commas do not separate
// items: "local,remote" is two items, "0-3,8" one, and "local,0-3,8" a policy and a CPU list.
std::vector<std::string> sweep_items(const FlagSpec& spec, const std::string& text) {
    if (!spec.all_bindings) return split_list(text);
    std::vector<std::string> items;
    for (const std::string& part : split_list(text)) {
        const bool cpus = !part.empty() && part.find_first_not_of("0123456789-") == std::string::npos;
        const bool previous_cpus = !items.empty() && parse_cpu_list(items.back()).has_value();
        if (cpus && previous_cpus)
            items.back() += "," + part;
        else
            items.push_back(part);
    }
    return items;
}

// "worker threads ... (num_workers: 0 to 256; default 4)"; the choices follow what a field is.
std::string help_text(const FlagSpec& spec, ConfigFlags::Mode mode) {
    const ConfigField& field = *spec.field;
    std::string help = spec.help;
    const bool briefs = std::any_of(field.choices.begin(), field.choices.end(),
                                    [](const FieldChoice& choice) { return !choice.brief.empty(); });
    if (briefs) help += ": " + choices_text(field);
    else if (field.type == FieldType::Choice) help += "; " + allowed_text(field);
    if (!spec.note.empty()) help += "; " + spec.note;
    if (mode == ConfigFlags::Mode::Sweep && spec.to_axis != nullptr) help += "; a comma list sweeps it";
    std::string keys(field.key);
    if (spec.all_bindings) keys += ", " + std::string(kBindPinThread.key) + ", " + std::string(kBindConsumer.key);
    const std::string range = range_text(field);
    return help + " (" + keys + (range.empty() ? "" : ": " + range) + "; default " + default_text(field) + ")";
}

LoaderConfig load_file(const std::string& path) {
    try {
        return load_config_file(path);
    } catch (const ConfigError& error) {
        const ConfigIssue& issue = error.issue();
        if (issue.field == "config") reject_flag("--config", issue.value, issue.allowed);
        throw UsageError("--config " + printable_path(path) + ": " + issue.message());
    }
}

}  // namespace

ConfigFlags::ConfigFlags(CLI::App& command, Mode mode) : mode_(mode) {
    command
        .add_option_function<std::string>(
            "--config", [this](const std::string& path) { config_file_ = path; },
            "JSON configuration file (LoaderConfig's fields); flags override it")
        ->type_name("FILE");
    for (const FlagSpec& spec : flag_specs()) {
        const bool list = mode == Mode::Sweep && spec.to_axis != nullptr;
        const std::string value_name(spec.field->value_name);
        command
            .add_option_function<std::string>(
                spec.name, [this, &spec](const std::string& text) { given_.emplace_back(&spec, text); },
                help_text(spec, mode))
            ->type_name(list ? value_name + ",..." : value_name);
    }
}

LoaderConfig ConfigFlags::config() const {
    if (given(kBatches.flag) != nullptr && given(kSeconds.flag) != nullptr)
        reject_flag(std::string(kSeconds.flag), *given(kSeconds.flag),
                    "one run length: " + std::string(kBatches.flag) + " or " + std::string(kSeconds.flag) + ", not both");
    LoaderConfig config = config_file_.empty() ? LoaderConfig{} : load_file(config_file_);
    // --bind first, so that --bind-workers and the others override it wherever they are given.
    for (const bool all_bindings : {true, false}) {
        for (const auto& [spec, text] : given_) {
            if (spec->all_bindings != all_bindings || (mode_ == Mode::Sweep && spec->to_axis != nullptr)) continue;
            if (const auto allowed = try_apply(config, *spec, text)) {
                // A CPU list holds commas too: only a list of policies is a sweep's list.
                const bool list = spec->to_axis != nullptr && text.find(',') != std::string::npos &&
                                  !parse_cpu_list(text);
                reject_flag(spec->name, text, *allowed + (list ? " (comma lists are for pinscope-cli sweep)" : ""));
            }
        }
    }
    return config;
}

SweepAxes ConfigFlags::sweep_axes() const {
    SweepAxes axes;
    for (const auto& [spec, text] : given_) {
        if (spec->to_axis == nullptr) continue;
        for (const std::string& item : sweep_items(*spec, text)) {
            LoaderConfig scratch;
            if (const auto allowed = try_apply(scratch, *spec, item))
                reject_flag(spec->name, item, "a comma list, each " + *allowed);
            spec->to_axis(axes, scratch);
        }
    }
    // Counted before expanding, so that long lists are refused rather than multiplied out.
    std::uint64_t combinations = 1;
    for (const std::size_t count : {axes.workers.size(), axes.prefetch.size(), axes.pin_memory.size(),
                                    axes.pin_mode.size(), axes.copy_stream.size(), axes.bind.size(),
                                    axes.membind.size()})
        combinations = std::min(combinations * std::max<std::uint64_t>(count, 1), kMaxSweepCombinations + 1);
    if (combinations > kMaxSweepCombinations) {
        std::vector<std::string> lists;
        for (const FlagSpec& spec : flag_specs())
            if (spec.to_axis != nullptr) lists.push_back(spec.name);
        std::string shorten;
        for (std::size_t i = 0; i < lists.size(); ++i)
            shorten += (i == 0 ? "" : i + 1 == lists.size() ? " or " : ", ") + lists[i];
        throw UsageError("sweep: the lists given make more than " + std::to_string(kMaxSweepCombinations) +
                         " combinations; expected at most " + std::to_string(kMaxSweepCombinations) + " (shorten " +
                         shorten + ")");
    }
    return axes;
}

void ConfigFlags::validate(const LoaderConfig& config, const std::string& context) const {
    const auto issues = find_run_issues(config);
    if (!issues.empty()) throw UsageError(context + describe(issues.front()));
}

const std::string* ConfigFlags::given(std::string_view flag) const {
    for (const auto& [spec, text] : given_)
        if (spec->name == flag) return &text;
    return nullptr;
}

std::string ConfigFlags::describe(const ConfigIssue& issue) const {
    std::string label = issue.field;
    for (const FlagSpec& spec : flag_specs()) {
        if (!names_field(spec, issue.field) || given(spec.name) == nullptr) continue;
        label = spec.name;
        // "sample_shape[1]" is the second dimension of --sample-shape.
        if (const auto open = issue.field.find('['); open != std::string::npos) {
            if (const auto index = parse_unsigned(issue.field.substr(open + 1, issue.field.size() - open - 2)))
                label += ", dimension " + std::to_string(*index + 1);
        }
    }
    return issue.message(label);
}

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    const auto result = std::from_chars(text.data(), end, value);
    if (result.ec != std::errc{} || result.ptr != end) return std::nullopt;
    return value;
}

std::optional<double> parse_number(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    if (text.empty() || result.ec != std::errc{} || result.ptr != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::optional<bool> parse_on_off(const std::string& text) {
    const std::string word = lower(text);
    if (word == "on") return true;
    if (word == "off") return false;
    return std::nullopt;
}

std::optional<std::vector<std::uint32_t>> parse_shape(const std::string& text) {
    std::vector<std::uint32_t> shape;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = std::min(text.find_first_of("xX", start), text.size());
        const auto dim = parse_unsigned(text.substr(start, end - start));
        if (!dim || *dim > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
        shape.push_back(static_cast<std::uint32_t>(*dim));
        if (end == text.size()) return shape;
        start = end + 1;
    }
}

std::optional<std::uint64_t> parse_size(const std::string& text) {
    struct Unit {
        std::string_view suffix;
        double bytes;
    };
    // Binary multiples for the short suffixes, as ulimit and most memory tools read them; GB and
    // friends are decimal, as everywhere else in pinscope (1 GB = 1e9 bytes).
    static constexpr std::array<Unit, 14> kUnits{{{"", 1},
                                                  {"b", 1},
                                                  {"k", 0x1p10},
                                                  {"kib", 0x1p10},
                                                  {"m", 0x1p20},
                                                  {"mib", 0x1p20},
                                                  {"g", 0x1p30},
                                                  {"gib", 0x1p30},
                                                  {"t", 0x1p40},
                                                  {"tib", 0x1p40},
                                                  {"kb", 1e3},
                                                  {"mb", 1e6},
                                                  {"gb", 1e9},
                                                  {"tb", 1e12}}};
    const std::size_t split = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, split);
    const std::string suffix = lower(split == std::string::npos ? "" : text.substr(split));
    const auto amount = parse_number(number);
    const auto unit = std::find_if(kUnits.begin(), kUnits.end(), [&](const Unit& u) { return u.suffix == suffix; });
    if (!amount || unit == kUnits.end()) return std::nullopt;
    const double bytes = std::round(*amount * unit->bytes);
    if (bytes >= 0x1p64) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, end - start);
        const auto first = item.find_first_not_of(" \t");
        item = first == std::string::npos ? "" : item.substr(first, item.find_last_not_of(" \t") - first + 1);
        items.push_back(std::move(item));
        if (end == text.size()) return items;
        start = end + 1;
    }
}

}  // namespace pinscope::cli
