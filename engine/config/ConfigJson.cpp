// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/ConfigJson.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/files/InputFile.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

using nlohmann::json;

namespace config_detail {
// A configuration or profile is flat; no real one nests past a few levels.
constexpr int kMaxJsonDepth = 32;
std::string json_value_text(const json& value);
json parse_json_text(const std::string& text);
}  // namespace config_detail

namespace {

std::string os_error(int error) { return std::generic_category().message(error); }

[[noreturn]] void reject(const std::string& key, const json& value, const std::string& allowed) {
    throw ConfigError(ConfigIssue{key, config_detail::json_value_text(value), allowed});
}

// A non-negative whole number of at most `max`; nlohmann would otherwise wrap -1 or truncate 2.5.
template <typename T>
T read_count(const std::string& key, const json& value) {
    constexpr std::uint64_t max = std::numeric_limits<T>::max();
    std::optional<std::uint64_t> whole;
    if (value.is_number_unsigned()) {
        whole = value.get<std::uint64_t>();
    } else if (value.is_number_integer()) {
        if (value.get<std::int64_t>() >= 0) whole = static_cast<std::uint64_t>(value.get<std::int64_t>());
    } else if (value.is_number_float()) {
        const double number = value.get<double>();
        if (number >= 0 && number < 0x1p64 && std::floor(number) == number) whole = static_cast<std::uint64_t>(number);
    }
    if (!whole || *whole > max) reject(key, value, "an integer from 0 to " + std::to_string(max));
    return static_cast<T>(*whole);
}

double read_number(const std::string& key, const json& value) {
    if (!value.is_number()) reject(key, value, "a number");
    return value.get<double>();
}

bool read_bool(const std::string& key, const json& value) {
    if (!value.is_boolean()) reject(key, value, "true or false");
    return value.get<bool>();
}

std::string read_string(const std::string& key, const json& value) {
    if (!value.is_string()) reject(key, value, "a string");
    return value.get<std::string>();
}

template <typename Enum, std::size_t N>
Enum read_enum(const std::string& key, const json& value, std::optional<Enum> (*parse)(const std::string&),
               const std::array<Enum, N>& all) {
    std::optional<Enum> parsed;
    if (value.is_string()) parsed = parse(value.get<std::string>());
    if (!parsed) {
        std::string names;
        for (const Enum item : all) names += (names.empty() ? "" : ", ") + to_string(item);
        reject(key, value, "one of: " + names);
    }
    return *parsed;
}

DType read_dtype(const std::string& key, const json& value) {
    return read_enum(key, value, parse_dtype, std::array{DType::F32, DType::F16, DType::BF16, DType::U8, DType::I32,
                                                         DType::I64, DType::F64});
}

PinMode read_pin_mode(const std::string& key, const json& value) {
    return read_enum(key, value, parse_pin_mode,
                     std::array{PinMode::Pool, PinMode::Alloc, PinMode::Register, PinMode::Worker});
}

HostMode read_host_mode(const std::string& key, const json& value) {
    return read_enum(key, value, parse_host_mode, std::array{HostMode::Modeled, HostMode::Real});
}

CopyStream read_copy_stream(const std::string& key, const json& value) {
    return read_enum(key, value, parse_copy_stream, std::array{CopyStream::Side, CopyStream::Compute});
}

MemoryPlacement read_placement(const std::string& key, const json& value) {
    return read_enum(key, value, parse_memory_placement,
                     std::array{MemoryPlacement::FirstTouch, MemoryPlacement::GpuLocal, MemoryPlacement::Remote,
                                MemoryPlacement::Interleave});
}

CpuBinding read_binding(const std::string& key, const json& value) {
    std::optional<CpuBinding> binding;
    if (value.is_string()) binding = parse_cpu_binding(value.get<std::string>());
    if (!binding) reject(key, value, "none, local (the GPU's NUMA node), remote (another node), or a CPU list such as 0-3,8");
    return *binding;
}

std::vector<std::uint32_t> read_shape(const std::string& key, const json& value) {
    if (!value.is_array()) reject(key, value, "an array of integers, such as [3, 224, 224]");
    std::vector<std::uint32_t> shape;
    for (std::size_t i = 0; i < value.size(); ++i)
        shape.push_back(read_count<std::uint32_t>(key + "[" + std::to_string(i) + "]", value[i]));
    return shape;
}

// null unsets an optional field; anything else goes through Read.
template <auto Read>
auto read_nullable(const std::string& key, const json& value) -> std::optional<decltype(Read(key, value))> {
    if (value.is_null()) return std::nullopt;
    try {
        return Read(key, value);
    } catch (const ConfigError& error) {
        reject(key, value, error.issue().allowed + ", or null");
    }
}

template <auto Member, auto Read>
void assign(LoaderConfig& config, const std::string& key, const json& value) {
    config.*Member = Read(key, value);
}

struct Key {
    const char* name;
    void (*apply)(LoaderConfig& config, const std::string& key, const json& value);
};

// Every key config_from_json accepts, in LoaderConfig's order.
constexpr std::array<Key, 23> kKeys{{
    {"batch_size", assign<&LoaderConfig::batch_size, read_count<std::uint32_t>>},
    {"sample_shape", assign<&LoaderConfig::sample_shape, read_shape>},
    {"dtype", assign<&LoaderConfig::dtype, read_dtype>},
    {"num_workers", assign<&LoaderConfig::num_workers, read_count<std::uint32_t>>},
    {"prefetch_factor", assign<&LoaderConfig::prefetch_factor, read_nullable<read_count<std::uint32_t>>>},
    {"pin_memory", assign<&LoaderConfig::pin_memory, read_bool>},
    {"non_blocking", assign<&LoaderConfig::non_blocking, read_bool>},
    {"copy_stream", assign<&LoaderConfig::copy_stream, read_copy_stream>},
    {"in_order", assign<&LoaderConfig::in_order, read_bool>},
    {"pin_mode", assign<&LoaderConfig::pin_mode, read_pin_mode>},
    {"cpu_us_per_sample", assign<&LoaderConfig::cpu_us_per_sample, read_number>},
    {"gpu_us_per_batch", assign<&LoaderConfig::gpu_us_per_batch, read_number>},
    {"batches", assign<&LoaderConfig::batches, read_nullable<read_count<std::uint64_t>>>},
    {"seconds", assign<&LoaderConfig::seconds, read_nullable<read_number>>},
    {"device", assign<&LoaderConfig::device, read_string>},
    {"host", assign<&LoaderConfig::host, read_nullable<read_host_mode>>},
    {"pinned_budget_bytes", assign<&LoaderConfig::pinned_budget_bytes, read_nullable<read_count<std::uint64_t>>>},
    {"bind_workers", assign<&LoaderConfig::bind_workers, read_binding>},
    {"bind_pin_thread", assign<&LoaderConfig::bind_pin_thread, read_binding>},
    {"bind_consumer", assign<&LoaderConfig::bind_consumer, read_binding>},
    {"membind", assign<&LoaderConfig::membind, read_placement>},
    {"topology_xml", assign<&LoaderConfig::topology_xml, read_string>},
    {"gpu_pci_bus_id", assign<&LoaderConfig::gpu_pci_bus_id, read_string>},
}};

const Key* find_key(const std::string& name) {
    for (const Key& key : kKeys)
        if (name == key.name) return &key;
    return nullptr;
}

[[noreturn]] void reject_unknown_key(const std::string& name) {
    std::string names;
    for (const Key& key : kKeys) names += (names.empty() ? "" : ", ") + std::string(key.name);
    throw ConfigError(ConfigIssue{name, name, "one of: " + names});
}

bool given(const json& object, const char* key) { return object.contains(key) && !object.at(key).is_null(); }

template <typename T>
json optional_json(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

// A temporary file beside the target that is removed unless it was renamed into place.
class TempFile {
public:
    explicit TempFile(const std::string& target) {
        const std::filesystem::path path(target);
        const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
        path_ = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
        fd_ = mkstemp(path_.data());
        if (fd_ < 0) path_.clear();
    }
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    bool opened() const { return fd_ >= 0; }

    bool write_all(const std::string& text) {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t written = ::write(fd_, text.data() + done, text.size() - done);
            if (written < 0 && errno == EINTR) continue;
            if (written < 0) return false;
            done += static_cast<std::size_t>(written);
        }
        return true;
    }

    // mkstemp creates the file for its owner only; keep the mode of the file being replaced.
    bool set_mode_of(const std::string& target) {
        struct stat existing {};
        const mode_t mode = ::stat(target.c_str(), &existing) == 0 ? existing.st_mode & 07777 : 0644;
        return ::fchmod(fd_, mode) == 0;
    }

    bool sync_and_close() {
        const bool ok = ::fsync(fd_) == 0;
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0 && ok;
    }

    bool rename_to(const std::string& target) {
        if (::rename(path_.c_str(), target.c_str()) != 0) return false;
        path_.clear();
        return true;
    }

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace

namespace config_detail {

std::string json_value_text(const json& value) {
    // dump() recurses (a value nested 100000 deep would overflow the stack) and throws on invalid
    // UTF-8: strings are shown through printable(), arrays and objects by their size.
    if (value.is_string()) return "\"" + printable(value.get_ref<const std::string&>(), kEchoChars - 10) + "\"";
    if (value.is_array()) return "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " item" : " items");
    if (value.is_object()) return "an object of " + std::to_string(value.size()) + (value.size() == 1 ? " key" : " keys");
    return value.dump();
}

// Reads and parses a JSON file. Throws std::runtime_error whose text is the reason it could not
// (the file's problem, or the parser's position and message). Shared with HardwareProfile.cpp,
// which declares it (the config headers are a fixed contract).
json read_json_file(const std::string& path) { return parse_json_text(read_input_file(path, kMaxJsonFileBytes)); }

json parse_json_text(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw std::runtime_error("the file is empty");
    // Containers open at each depth, each with the keys it has so far (none for arrays).
    std::vector<std::unordered_set<std::string>> open;
    const json::parser_callback_t limits = [&open](int depth, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                if (depth >= kMaxJsonDepth)
                    throw std::runtime_error("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
                open.emplace_back();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end: open.pop_back(); break;
            case json::parse_event_t::key:
                // nlohmann keeps the last of repeated keys; which one was meant is a guess.
                if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second)
                    throw std::runtime_error("the key \"" + printable(parsed.get<std::string>()) +
                                             "\" appears twice in one object");
                break;
            case json::parse_event_t::value: break;
        }
        return true;
    };
    try {
        return json::parse(text, limits);
    } catch (const json::parse_error& error) {
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep the position and reason,
        // whose excerpt of the input ("last read: ...") may be long or hold control characters.
        std::string what = error.what();
        if (const auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string::npos)
            what.erase(0, end + 2);
        throw std::runtime_error("not valid JSON: " + printable(what, 160) + " (byte " + std::to_string(error.byte) + ")");
    } catch (const json::out_of_range&) {
        throw std::runtime_error("a number beyond what a double holds (about 1.8e308)");
    } catch (const json::exception&) {
        throw std::runtime_error("not valid JSON");
    }
}

}  // namespace config_detail

json to_json(const LoaderConfig& config) {
    return json{
        {"batch_size", config.batch_size},
        {"sample_shape", config.sample_shape},
        {"dtype", to_string(config.dtype)},
        {"num_workers", config.num_workers},
        {"prefetch_factor", optional_json(config.prefetch_factor)},
        {"pin_memory", config.pin_memory},
        {"non_blocking", config.non_blocking},
        {"copy_stream", to_string(config.copy_stream)},
        {"in_order", config.in_order},
        {"pin_mode", to_string(config.pin_mode)},
        {"cpu_us_per_sample", config.cpu_us_per_sample},
        {"gpu_us_per_batch", config.gpu_us_per_batch},
        {"batches", optional_json(config.batches)},
        {"seconds", optional_json(config.seconds)},
        {"device", config.device},
        {"host", config.host ? json(to_string(*config.host)) : json(nullptr)},
        {"pinned_budget_bytes", optional_json(config.pinned_budget_bytes)},
        {"bind_workers", to_string(config.bind_workers)},
        {"bind_pin_thread", to_string(config.bind_pin_thread)},
        {"bind_consumer", to_string(config.bind_consumer)},
        {"membind", to_string(config.membind)},
        {"topology_xml", config.topology_xml},
        {"gpu_pci_bus_id", config.gpu_pci_bus_id},
    };
}

LoaderConfig config_from_json(const json& object, const LoaderConfig& base) {
    if (!object.is_object()) reject("config", object, "a JSON object of configuration keys");
    if (given(object, "batches") && given(object, "seconds"))
        reject("batches", object.at("batches"), "one run length: give either batches or seconds, not both");
    LoaderConfig config = base;
    for (const auto& [name, value] : object.items()) {
        const Key* key = find_key(name);
        if (!key) reject_unknown_key(name);
        key->apply(config, name, value);
    }
    // The run length is one or the other: giving one replaces the other.
    if (given(object, "batches")) config.seconds.reset();
    if (given(object, "seconds")) config.batches.reset();
    return config;
}

LoaderConfig load_config_file(const std::string& path, const LoaderConfig& base) {
    json object;
    try {
        object = config_detail::read_json_file(path);
    } catch (const std::runtime_error& error) {
        throw ConfigError(ConfigIssue{"config", path, std::string("a readable JSON file (") + error.what() + ")"});
    }
    if (!object.is_object())
        throw ConfigError(
            ConfigIssue{"config", path, std::string("a JSON object at the top level, not ") + object.type_name()});
    return config_from_json(object, base);
}

void save_config_file(const std::string& path, const LoaderConfig& config) {
    const std::string text = to_json(config).dump(2) + "\n";
    TempFile temp(path);
    const bool ok = temp.opened() && temp.write_all(text) && temp.set_mode_of(path) && temp.sync_and_close() &&
                    temp.rename_to(path);
    if (!ok) throw std::runtime_error("cannot write " + path + ": " + os_error(errno));
}

}  // namespace pinscope
