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
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/numa/NumaPlan.h"
#include "engine/topology/CpuList.h"

namespace pinscope::cli {

using nlohmann::json;

enum class Kind { Integer, Number, OnOff, Shape, Size, Text };

struct FlagSpec {
    const char* name;        // "--workers"
    const char* field;       // the LoaderConfig key in JSON: "num_workers"
    const char* value_name;  // "N"
    const char* help;
    Kind kind;
    // JSON of a value the engine rejects: its message says what is allowed. nullptr: nothing to ask.
    const char* probe;
    bool allowed_in_help;      // list what is allowed in --help (short enumerations)
    const char* default_text;  // nullptr: LoaderConfig's default
    void (*to_axis)(SweepAxes& axes, const LoaderConfig& config);  // non-null for the sweep axes
    bool all_bindings = false;  // sets bind_pin_thread and bind_consumer too (--bind)
};

namespace {

// A sweep of this many runs of a few seconds each already takes hours.
constexpr std::uint64_t kMaxSweepCombinations = 1000;

constexpr std::array<FlagSpec, 24> kFlags{{
    {"--batch-size", "batch_size", "N", "samples per batch", Kind::Integer, "0", false, nullptr, nullptr},
    {"--sample-shape", "sample_shape", "SHAPE", "shape of one sample, such as 3x224x224", Kind::Shape, "[0]", false,
     nullptr, nullptr},
    {"--dtype", "dtype", "TYPE", "element type", Kind::Text, "\"\"", true, nullptr, nullptr},
    {"--workers", "num_workers", "N", "worker threads (num_workers); 0 loads in the consumer", Kind::Integer,
     "4294967295", false, nullptr,
     [](SweepAxes& axes, const LoaderConfig& c) { axes.workers.push_back(c.num_workers); }},
    {"--prefetch", "prefetch_factor", "N", "batches in flight per worker (prefetch_factor); needs workers",
     Kind::Integer, "0", false, "2 with workers",
     [](SweepAxes& axes, const LoaderConfig& c) { axes.prefetch.push_back(c.prefetch_factor.value_or(0)); }},
    {"--pin-memory", "pin_memory", "on|off", "copy batches into page-locked memory (pin_memory)", Kind::OnOff, nullptr,
     false, nullptr, [](SweepAxes& axes, const LoaderConfig& c) { axes.pin_memory.push_back(c.pin_memory); }},
    {"--non-blocking", "non_blocking", "on|off", "asynchronous host-to-device copies (non_blocking)", Kind::OnOff,
     nullptr, false, nullptr, nullptr},
    {"--copy-stream", "copy_stream", "compute|side",
     "where the copy is queued: compute (the kernels' stream, as x.to(\"cuda\") in a plain loop: each copy waits "
     "for the kernels before it) or side (a stream of its own, as prefetcher recipes do: copies overlap kernels)",
     Kind::Text, "\"\"", false, nullptr,
     [](SweepAxes& axes, const LoaderConfig& c) { axes.copy_stream.push_back(c.copy_stream); }},
    {"--in-order", "in_order", "on|off", "hand batches out strictly in index order (in_order)", Kind::OnOff, nullptr,
     false, nullptr, nullptr},
    {"--pin-mode", "pin_mode", "MODE", "how page-locked memory is obtained with pin_memory on", Kind::Text, "\"\"",
     true, nullptr, [](SweepAxes& axes, const LoaderConfig& c) { axes.pin_mode.push_back(c.pin_mode); }},
    {"--cpu-us", "cpu_us_per_sample", "US", "CPU work per sample, microseconds", Kind::Number, "-1", false, nullptr,
     nullptr},
    {"--gpu-us", "gpu_us_per_batch", "US", "kernel time per batch, microseconds", Kind::Number, "-1", false, nullptr,
     nullptr},
    {"--batches", "batches", "N", "run length in batches, instead of --seconds", Kind::Integer, "0", false, nullptr,
     nullptr},
    {"--seconds", "seconds", "S", "run length in seconds, instead of --batches", Kind::Number, "-1", false, nullptr,
     nullptr},
    {"--device", "device", "DEVICE", "auto (the GPU if there is one, else emulated), emulated, emulated:PROFILE (name or JSON file), cuda or cuda:N", Kind::Text,
     nullptr, false, nullptr, nullptr},
    {"--host", "host", "MODE", "host work modelled from the profile or done for real", Kind::Text, "\"\"", true,
     "modeled on the emulated device, real on CUDA", nullptr},
    {"--pinned-budget", "pinned_budget_bytes", "BYTES", "most page-locked memory, such as 512M, 4G or 1.5GiB",
     Kind::Size, "0", false, "a quarter of physical memory", nullptr},
    {"--bind", "bind_workers", "POLICY",
     "where the workers, the pin thread and the consumer may run: none, local (the GPU's NUMA node), remote "
     "(another node) or a CPU list such as 0-3,8; --bind-workers, --bind-pin and --bind-consumer override it",
     Kind::Text, "\"\"", false, nullptr,
     [](SweepAxes& axes, const LoaderConfig& c) { axes.bind.push_back(c.bind_workers); }, true},
    {"--bind-workers", "bind_workers", "POLICY", "where the workers may run: as --bind", Kind::Text, "\"\"", false,
     nullptr, nullptr},
    {"--bind-pin", "bind_pin_thread", "POLICY", "where the pin thread may run: as --bind", Kind::Text, "\"\"", false,
     nullptr, nullptr},
    {"--bind-consumer", "bind_consumer", "POLICY", "where the consumer may run: as --bind", Kind::Text, "\"\"", false,
     nullptr, nullptr},
    {"--membind", "membind", "PLACEMENT",
     "where the pages of pinned blocks go: none (first touch), local (the GPU's NUMA node), remote (another node) "
     "or interleave (page by page over every node)",
     Kind::Text, "\"\"", false, nullptr,
     [](SweepAxes& axes, const LoaderConfig& c) { axes.membind.push_back(c.membind); }},
    {"--topology", "topology_xml", "FILE|NAME",
     "model this hwloc XML topology instead of this machine (emulated device only): a file, or a shipped one "
     "(2-socket-2-gpu, 4-gpu-server)",
     Kind::Text, nullptr, false, "this machine", nullptr},
    {"--gpu", "gpu_pci_bus_id", "BUSID",
     "on a loaded topology, the GPU the emulated device stands for, by PCI bus id such as 0000:c1:00.0", Kind::Text,
     "\"x\"", false, "the topology's first GPU", nullptr},
}};

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return text;
}

bool names_field(const FlagSpec& spec, const std::string& field) {
    if (spec.all_bindings && (field == "bind_pin_thread" || field == "bind_consumer")) return true;
    return field == spec.field || field.starts_with(std::string(spec.field) + "[");
}

// Optional fields accept null in a config file; on the command line that is not a value.
std::string without_null(std::string allowed) {
    constexpr std::string_view suffix = ", or null";
    if (allowed.ends_with(suffix)) allowed.resize(allowed.size() - suffix.size());
    return allowed;
}

// What the engine allows for the field, learnt from its message about a value it rejects, so that
// flags and config files are held to the same rules.
std::string engine_allowed(const FlagSpec& spec) {
    if (spec.probe == nullptr) return "";
    try {
        const LoaderConfig probe = config_from_json(json{{spec.field, json::parse(spec.probe)}});
        for (const ConfigIssue& issue : find_config_issues(probe))
            if (names_field(spec, issue.field)) return issue.allowed;
    } catch (const ConfigError& error) {
        return without_null(error.issue().allowed);
    }
    return "";
}

std::string allowed_text(const FlagSpec& spec) {
    const std::string engine = engine_allowed(spec);
    switch (spec.kind) {
    case Kind::OnOff: return "on or off";
    case Kind::Shape: return "dimensions separated by x, such as 3x224x224, each " + engine;
    case Kind::Size: return "a size in bytes, with an optional suffix such as 512M, 4G or 1.5GiB: " + engine;
    case Kind::Integer: return engine.empty() ? "an integer" : engine;
    case Kind::Number: return engine.empty() ? "a number" : engine;
    case Kind::Text: return engine;
    }
    return engine;
}

std::optional<json> to_json_value(Kind kind, const std::string& text) {
    switch (kind) {
    case Kind::Integer:
    case Kind::Size:
        if (const auto value = kind == Kind::Integer ? parse_unsigned(text) : parse_size(text)) return json(*value);
        return std::nullopt;
    case Kind::Number:
        if (const auto value = parse_number(text)) return json(*value);
        return std::nullopt;
    case Kind::OnOff:
        if (const auto value = parse_on_off(text)) return json(*value);
        return std::nullopt;
    case Kind::Shape:
        if (const auto value = parse_shape(text)) return json(*value);
        return std::nullopt;
    case Kind::Text: return json(text);
    }
    return std::nullopt;
}

// Sets the flag's field from `text`; on failure returns what is allowed.
std::optional<std::string> try_apply(LoaderConfig& config, const FlagSpec& spec, const std::string& text) {
    const auto value = to_json_value(spec.kind, text);
    if (!value) return allowed_text(spec);
    try {
        json object{{spec.field, *value}};
        if (spec.all_bindings) object["bind_pin_thread"] = object["bind_consumer"] = *value;
        config = config_from_json(object, config);
    } catch (const ConfigError& error) {
        // Enumerations say best themselves what they accept; numbers beyond the type's range get
        // the range validate() allows.
        return spec.kind == Kind::Text ? without_null(error.issue().allowed) : allowed_text(spec);
    }
    return std::nullopt;
}

std::string default_text(const FlagSpec& spec) {
    if (spec.default_text != nullptr) return spec.default_text;
    const json value = to_json(LoaderConfig{}).at(spec.field);
    if (value.is_null()) return "unset";
    if (value.is_boolean()) return value.get<bool>() ? "on" : "off";
    if (value.is_string()) return value.get<std::string>();
    if (value.is_array()) return shape_to_string(value.get<std::vector<std::uint32_t>>());
    if (value.is_number_float()) {
        std::array<char, 32> buffer{};
        const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value.get<double>()).ptr;
        return std::string(buffer.data(), end);
    }
    return value.dump();
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

std::string help_text(const FlagSpec& spec, ConfigFlags::Mode mode) {
    std::string help = spec.help;
    if (spec.allowed_in_help) help += "; " + engine_allowed(spec);
    if (mode == ConfigFlags::Mode::Sweep && spec.to_axis != nullptr) help += "; a comma list sweeps it";
    return help + " (default " + default_text(spec) + ")";
}

LoaderConfig load_file(const std::string& path) {
    try {
        return load_config_file(path);
    } catch (const ConfigError& error) {
        const ConfigIssue& issue = error.issue();
        if (issue.field == "config") reject_flag("--config", issue.value, issue.allowed);
        throw UsageError("--config " + printable(path) + ": " + issue.message());
    }
}

}  // namespace

ConfigFlags::ConfigFlags(CLI::App& command, Mode mode) : mode_(mode) {
    command
        .add_option_function<std::string>(
            "--config", [this](const std::string& path) { config_file_ = path; },
            "JSON configuration file (LoaderConfig's fields); flags override it")
        ->type_name("FILE");
    for (const FlagSpec& spec : kFlags) {
        const bool list = mode == Mode::Sweep && spec.to_axis != nullptr;
        command
            .add_option_function<std::string>(
                spec.name, [this, &spec](const std::string& text) { given_.emplace_back(&spec, text); },
                help_text(spec, mode))
            ->type_name(list ? std::string(spec.value_name) + ",..." : spec.value_name);
    }
}

LoaderConfig ConfigFlags::config() const {
    if (given("--batches") != nullptr && given("--seconds") != nullptr)
        reject_flag("--seconds", *given("--seconds"), "one run length: --batches or --seconds, not both");
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
    if (combinations > kMaxSweepCombinations)
        throw UsageError("sweep: the lists given make more than " + std::to_string(kMaxSweepCombinations) +
                         " combinations; expected at most " + std::to_string(kMaxSweepCombinations) +
                         " (shorten --workers, --prefetch, --pin-memory, --pin-mode, --copy-stream, --bind or "
                         "--membind)");
    return axes;
}

void ConfigFlags::validate(const LoaderConfig& config, const std::string& context) const {
    const auto issues = find_run_issues(config);
    if (!issues.empty()) throw UsageError(context + describe(issues.front()));
}

const std::string* ConfigFlags::given(const char* flag) const {
    for (const auto& [spec, text] : given_)
        if (std::string_view(spec->name) == flag) return &text;
    return nullptr;
}

std::string ConfigFlags::describe(const ConfigIssue& issue) const {
    std::string label = issue.field;
    for (const FlagSpec& spec : kFlags) {
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
