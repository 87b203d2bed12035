// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/ConfigJson.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/config/ConfigFields.h"
#include "engine/config/JsonInput.h"
#include "engine/files/InputFile.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

using nlohmann::json;

namespace config_detail {
// A configuration or profile is flat; no real one nests past a few levels.
constexpr int kMaxJsonDepth = 32;
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

// One of the field's choices, by name.
template <typename Enum>
Enum read_choice(const ConfigField& field, const std::string& key, const json& value) {
    std::optional<std::uint8_t> parsed;
    if (value.is_string()) parsed = find_choice(field.choices, value.get<std::string>());
    if (!parsed) reject(key, value, allowed_text(field));
    return static_cast<Enum>(*parsed);
}

CpuBinding read_binding(const ConfigField& field, const std::string& key, const json& value) {
    std::optional<CpuBinding> binding;
    if (value.is_string()) binding = parse_cpu_binding(value.get<std::string>());
    if (!binding) reject(key, value, allowed_text(field));
    return *binding;
}

std::vector<std::uint32_t> read_shape(const std::string& key, const json& value) {
    if (!value.is_array()) reject(key, value, "an array of integers, such as [3, 224, 224]");
    std::vector<std::uint32_t> shape;
    for (std::size_t i = 0; i < value.size(); ++i)
        shape.push_back(read_count<std::uint32_t>(key + "[" + std::to_string(i) + "]", value[i]));
    return shape;
}

// A value of the field's member type T; null unsets an optional field.
template <typename T>
T read_value(const ConfigField& field, const std::string& key, const json& value) {
    if constexpr (kIsOptional<T>) {
        if (value.is_null()) return std::nullopt;
        try {
            return read_value<typename T::value_type>(field, key, value);
        } catch (const ConfigError& error) {
            reject(key, value, error.issue().allowed + ", or null");
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        return read_bool(key, value);
    } else if constexpr (std::is_integral_v<T>) {
        return read_count<T>(key, value);
    } else if constexpr (std::is_same_v<T, double>) {
        return read_number(key, value);
    } else if constexpr (std::is_same_v<T, std::string>) {
        return read_string(key, value);
    } else if constexpr (std::is_same_v<T, std::vector<std::uint32_t>>) {
        return read_shape(key, value);
    } else if constexpr (std::is_same_v<T, CpuBinding>) {
        return read_binding(field, key, value);
    } else {
        return read_choice<T>(field, key, value);
    }
}

template <typename T>
json value_json(const T& value) {
    if constexpr (kIsOptional<T>) {
        return value ? value_json(*value) : json(nullptr);
    } else if constexpr (std::is_enum_v<T> || std::is_same_v<T, CpuBinding>) {
        return to_string(value);
    } else {
        return json(value);
    }
}

[[noreturn]] void reject_unknown_key(const std::string& name) {
    std::string names;
    for (const ConfigField& field : kConfigFields) names += (names.empty() ? "" : ", ") + std::string(field.key);
    throw ConfigError(ConfigIssue{name, name, "one of: " + names});
}

bool given(const json& object, const char* key) { return object.contains(key) && !object.at(key).is_null(); }

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
    json object = json::object();
    for (const ConfigField& field : kConfigFields)
        object[std::string(field.key)] =
            std::visit([&](auto member) { return value_json(config.*member); }, field.member);
    return object;
}

LoaderConfig config_from_json(const json& object, const LoaderConfig& base) {
    if (!object.is_object()) reject("config", object, "a JSON object of configuration keys");
    if (given(object, "batches") && given(object, "seconds"))
        reject("batches", object.at("batches"), "one run length: give either batches or seconds, not both");
    LoaderConfig config = base;
    for (const auto& item : object.items()) {
        // Named, not a structured binding: clang before 16 (the fuzz preset's) cannot capture those.
        const std::string& name = item.key();
        const json& value = item.value();
        const ConfigField* field = find_config_field(name);
        if (field == nullptr) reject_unknown_key(name);
        std::visit(
            [&](auto member) {
                config.*member = read_value<std::remove_reference_t<decltype(config.*member)>>(*field, name, value);
            },
            field->member);
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
