// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/HardwareProfile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/config/JsonInput.h"
#include "engine/device/EmbeddedProfiles.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

using nlohmann::json;

namespace {

// What a number in a profile may be.
struct Rule {
    double lo;
    bool lo_exclusive;
    double hi;
    bool whole;
    const char* allowed;

    bool accepts(double value) const {
        return std::isfinite(value) && (lo_exclusive ? value > lo : value >= lo) && value <= hi &&
               (!whole || std::floor(value) == value);
    }
};

// Every number has finite bounds: beyond them a profile is a broken measurement, and the model's
// durations (microseconds times a factor, converted to integer nanoseconds) would overflow.
constexpr Rule kSize{1, false, 0x1p40, false, "a size in bytes from 1 to 1099511627776 (1 TiB)"};
// Rates in GB/s: below 0.01 a batch would take minutes per step, which is a broken measurement.
constexpr Rule kBandwidth{0.01, false, 1e6, false, "a rate from 0.01 to 1000000 GB/s"};
constexpr Rule kCost{0, false, 1e7, false, "a number of microseconds from 0 to 10000000 (10 s)"};
constexpr Rule kFraction{0, false, 1, false, "a number from 0 to 1"};
constexpr Rule kCores{1, false, 4096, true, "an integer from 1 to 4096"};
constexpr Rule kThreadCount{0, false, 4096, true, "an integer from 0 to 4096"};
// A rate under load against the idle rate: noise may put it a little above 1.
constexpr Rule kFactor{0.01, false, 2, false, "a factor from 0.01 to 2"};
constexpr Rule kSizeFactor{0.01, false, 100, false, "a factor from 0.01 to 100"};
constexpr Rule kCostFactor{0.01, false, 1000, false, "a factor from 0.01 to 1000"};
constexpr Rule kCrossNodeFactor{0.01, false, 1, false,
                                "a number from 0.01 to 1 (the rate across nodes as a share of the local one)"};

constexpr Rule kMachines{1, false, 100000, true, "an integer from 1 to 100000"};
constexpr Rule kSpread{0, false, 1000, false, "a ratio from 1 to 1000, or 0 (one machine)"};
constexpr Rule kCount{0, false, 1e9, true, "an integer from 0 to 1000000000"};
constexpr Rule kSeconds{0, true, 1e6, false, "seconds above 0"};
constexpr Rule kSpeedRatio{0, true, 1000, false, "a ratio above 0, at most 1000"};

constexpr std::size_t kMaxTextChars = 4096;
// Where a profile's figures come from: calibrate's own account of what it measured ran past 4096
// characters (about 4700 on the H100 VMs, 2026-11-27) and lost its last sentences.
constexpr std::size_t kMaxSourceChars = 16384;

[[noreturn]] void reject(const std::string& field, const std::string& value, const std::string& allowed) {
    throw ConfigError(ConfigIssue{field, value, allowed});
}

std::string describe(const json& value) { return config_detail::json_value_text(value); }

// One JSON object of a profile, with the dotted path that error messages name.
class Reader {
public:
    Reader(const json& node, std::string path) : node_(node), path_(std::move(path)) {
        if (!node_.is_object()) reject(path_, describe(node_), "a JSON object");
    }

    std::string path_of(const char* key) const { return path_ + "." + key; }

    bool has(const char* key) const { return node_.contains(key); }

    Reader object(const char* key) const { return Reader(child(key, "a JSON object"), path_of(key)); }

    std::string text(const char* key, std::size_t max_chars = kMaxTextChars) const {
        const json& value = child(key, "a string");
        if (!value.is_string()) reject(path_of(key), describe(value), "a string");
        // Names and descriptions are shown on terminals: escapes in them are made visible.
        return printable(value.get<std::string>(), max_chars);
    }

    bool boolean(const char* key) const {
        const json& value = child(key, "true or false");
        if (!value.is_boolean()) reject(path_of(key), describe(value), "true or false");
        return value.get<bool>();
    }

    double number(const char* key, const Rule& rule) const {
        return checked(child(key, rule.allowed), path_of(key), rule);
    }

    // Sizes in bytes: at least one, each above 0 and above the one before.
    std::vector<double> sizes(const char* key) const {
        return increasing(key, kSize, "an array of sizes in bytes, increasing", "size");
    }

    // An axis: at least one value, each allowed by `rule` and above the one before.
    std::vector<double> increasing(const char* key, const Rule& rule, const char* allowed, const char* what) const {
        const json& array = array_child(key, allowed);
        if (array.empty()) reject(path_of(key), "[]", std::string("at least one ") + what);
        std::vector<double> values;
        for (std::size_t i = 0; i < array.size(); ++i) {
            const std::string field = element(key, i);
            const double value = checked(array[i], field, rule);
            if (!values.empty() && value <= values.back())
                reject(field, describe(array[i]),
                       std::string("a ") + what + " above the previous one (" + describe(array[i - 1]) + ")");
            values.push_back(value);
        }
        return values;
    }

    // One value per size of `sizes_field`.
    SizeCurve curve(const char* key, const Rule& rule, const std::vector<double>& sizes,
                    const std::string& sizes_field) const {
        const json& array = array_child(key, "an array of numbers, one per size");
        if (array.size() != sizes.size())
            reject(path_of(key), std::to_string(array.size()) + " values",
                   "one value per size in " + sizes_field + " (" + std::to_string(sizes.size()) + ")");
        SizeCurve curve{sizes, {}};
        for (std::size_t i = 0; i < array.size(); ++i) curve.values.push_back(checked(array[i], element(key, i), rule));
        return curve;
    }

    // A whole number from 0 to 2^64 - 1, read as one (a double would round a large seed).
    std::uint64_t seed(const char* key) const {
        const json& value = child(key, "an integer from 0 to 18446744073709551615");
        if (value.is_number_unsigned()) return value.get<std::uint64_t>();
        if (value.is_number_integer() && value.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(value.get<std::int64_t>());
        reject(path_of(key), describe(value), "an integer from 0 to 18446744073709551615");
    }

    // An array of objects, each read with its own path ("profile.trust.validated[0]").
    std::vector<Reader> objects(const char* key) const {
        const json& array = array_child(key, "an array of JSON objects");
        std::vector<Reader> readers;
        for (std::size_t i = 0; i < array.size(); ++i) readers.emplace_back(array[i], element(key, i));
        return readers;
    }

    // An object {sizes_bytes, values} with its own size axis.
    SizeCurve own_curve(const char* key, const Rule& rule) const {
        const Reader reader = object(key);
        return reader.curve("values", rule, reader.sizes("sizes_bytes"), reader.path_of("sizes_bytes"));
    }

private:
    const json& child(const char* key, const char* allowed) const {
        if (!node_.contains(key)) reject(path_of(key), "missing", allowed);
        return node_.at(key);
    }

    const json& array_child(const char* key, const char* allowed) const {
        const json& value = child(key, allowed);
        if (!value.is_array()) reject(path_of(key), describe(value), allowed);
        return value;
    }

    std::string element(const char* key, std::size_t index) const {
        return path_of(key) + "[" + std::to_string(index) + "]";
    }

    static double checked(const json& value, const std::string& field, const Rule& rule) {
        if (!value.is_number() || !rule.accepts(value.get<double>())) reject(field, describe(value), rule.allowed);
        return value.get<double>();
    }

    const json& node_;
    std::string path_;
};

// Byte counts read best as integers.
json size_json(double bytes) {
    if (std::floor(bytes) == bytes && bytes >= 0 && bytes < 0x1p63) return static_cast<std::uint64_t>(bytes);
    return bytes;
}

json sizes_json(const std::vector<double>& sizes) {
    json array = json::array();
    for (const double size : sizes) array.push_back(size_json(size));
    return array;
}

// The file shares one size axis among the copy curves; a curve measured at other sizes is
// resampled on it (exactly where its sizes are the same).
json values_at(const SizeCurve& curve, const std::vector<double>& sizes) {
    json array = json::array();
    for (const double size : sizes) array.push_back(curve.at(size));
    return array;
}

json own_curve_json(const SizeCurve& curve) {
    return json{{"sizes_bytes", sizes_json(curve.sizes_bytes)}, {"values", curve.values}};
}

// A worker's pageable copy's factors under load at sizes besides calibrate's batch, ascending:
// "pageable_h2d_by_size", and the keys of profiles calibrated before 2026-11-28 ("pageable_h2d_small",
// "pageable_h2d_large", each with its "..._bytes", and "pageable_h2d_more"). A size given twice,
// or calibrate's own, is refused, naming where it was given the second time.
std::vector<PageableFactorsAtSize> pageable_factors_by_size(const Reader& load, const std::vector<double>& others,
                                                            const std::string& axis) {
    struct Given {
        PageableFactorsAtSize factors;
        std::string field;  // where its size was given
    };
    std::vector<Given> given;
    for (const char* key : {"pageable_h2d_small", "pageable_h2d_large"})
        if (load.has(key)) {
            const std::string bytes_key = std::string(key) + "_bytes";
            given.push_back({{load.number(bytes_key.c_str(), kSize), load.curve(key, kFactor, others, axis).values},
                             load.path_of(bytes_key.c_str())});
        }
    for (const char* key : {"pageable_h2d_more", "pageable_h2d_by_size"}) {
        if (!load.has(key)) continue;
        double before = 0;
        for (const Reader& at_size : load.objects(key)) {
            const double bytes = at_size.number("bytes", kSize);
            if (bytes <= before)
                reject(at_size.path_of("bytes"), describe(size_json(bytes)),
                       "a size above the previous one (" + describe(size_json(before)) + ")");
            before = bytes;
            given.push_back({{bytes, at_size.curve("by_others", kFactor, others, axis).values}, at_size.path_of("bytes")});
        }
    }
    std::stable_sort(given.begin(), given.end(),
                     [](const Given& a, const Given& b) { return a.factors.bytes < b.factors.bytes; });
    std::vector<PageableFactorsAtSize> sizes;
    for (Given& at_size : given) {
        const double bytes = at_size.factors.bytes;
        if (bytes == static_cast<double>(kCalibrationBatchBytes) || (!sizes.empty() && bytes == sizes.back().bytes))
            reject(at_size.field, describe(size_json(bytes)),
                   "a size given once, and not calibrate's batch (" + std::to_string(kCalibrationBatchBytes) + ")");
        sizes.push_back(std::move(at_size.factors));
    }
    return sizes;
}

std::string builtin_list() {
    std::string names;
    for (const std::string& name : builtin_profile_names()) names += (names.empty() ? "" : ", ") + name;
    return names;
}

// Between two measured sizes, `bytes` on a log2 size axis (lower_bytes < bytes < upper_bytes).
double between_log_sizes(double lower_bytes, double lower_value, double upper_bytes, double upper_value, double bytes) {
    const double lo = std::log2(lower_bytes);
    const double t = (std::log2(bytes) - lo) / (std::log2(upper_bytes) - lo);
    return lower_value + t * (upper_value - lower_value);
}

// `values` at `bytes` on the log2 size axis `sizes_bytes`, held flat beyond the ends; 0 when empty.
double at_log_size(const std::vector<double>& sizes_bytes, const std::vector<double>& values, double bytes) {
    const std::size_t count = std::min(sizes_bytes.size(), values.size());
    if (count == 0) return 0;
    if (!(bytes > sizes_bytes.front())) return values.front();  // NaN lands here too
    if (bytes >= sizes_bytes[count - 1]) return values[count - 1];
    const auto upper = std::lower_bound(sizes_bytes.begin(), sizes_bytes.begin() + count, bytes);
    const auto i = static_cast<std::size_t>(upper - sizes_bytes.begin());
    if (sizes_bytes[i] == bytes) return values[i];
    return between_log_sizes(sizes_bytes[i - 1], values[i - 1], sizes_bytes[i], values[i], bytes);
}

ProfileTrust trust_from(const Reader& trust) {
    ProfileTrust result;
    result.machines = static_cast<int>(trust.number("machines", kMachines));
    // A ratio between machines is at least 1; 0 says there was one machine.
    const auto spread = [&](const char* key) {
        const double value = trust.number(key, kSpread);
        if (value > 0 && value < 1) reject(trust.path_of(key), describe(json(value)), kSpread.allowed);
        return value;
    };
    if (trust.has("copy_spread")) result.copy_spread = spread("copy_spread");
    if (trust.has("host_spread")) result.host_spread = spread("host_spread");
    if (!trust.has("validated")) return result;
    for (const Reader& v : trust.objects("validated")) {
        ProfileValidation validation;
        validation.when = v.text("when");
        validation.against = v.text("against");
        if (v.has("recorded")) validation.recorded = v.boolean("recorded");
        validation.calibrated_in_the_same_call = v.boolean("calibrated_in_the_same_call");
        // A check against recorded figures has no seed of its own (their file does not say it).
        if (!validation.recorded || v.has("seed")) validation.seed = v.seed("seed");
        validation.cells = static_cast<std::size_t>(v.number("cells", kCount));
        validation.seconds = v.number("seconds", kSeconds);
        validation.repeat = static_cast<std::size_t>(v.number("repeat", kCount));
        validation.within_10 = static_cast<std::size_t>(v.number("within_10", kCount));
        validation.within_15 = static_cast<std::size_t>(v.number("within_15", kCount));
        validation.pairs_agreeing = static_cast<std::size_t>(v.number("pairs_agreeing", kCount));
        validation.pairs_counted = static_cast<std::size_t>(v.number("pairs_counted", kCount));
        if (v.has("host_slowest") || v.has("host_fastest")) {
            validation.host_slowest = v.number("host_slowest", kSpeedRatio);
            validation.host_fastest = v.number("host_fastest", kSpeedRatio);
            if (validation.host_slowest > validation.host_fastest)
                reject(v.path_of("host_slowest"), describe(json(validation.host_slowest)), "at most host_fastest");
        }
        if (validation.within_15 > validation.cells || validation.within_10 > validation.within_15)
            reject(v.path_of("within_10"), std::to_string(validation.within_10) + " and " + std::to_string(validation.within_15),
                   "within_10 <= within_15 <= cells");
        if (validation.pairs_agreeing > validation.pairs_counted)
            reject(v.path_of("pairs_agreeing"), std::to_string(validation.pairs_agreeing), "at most pairs_counted");
        result.validations.push_back(std::move(validation));
    }
    return result;
}

json trust_json(const ProfileTrust& trust) {
    json written{{"machines", trust.machines}};
    if (trust.copy_spread > 0) written["copy_spread"] = trust.copy_spread;
    if (trust.host_spread > 0) written["host_spread"] = trust.host_spread;
    if (trust.validations.empty()) return written;
    json validated = json::array();
    for (const ProfileValidation& v : trust.validations) {
        validated.push_back({{"when", v.when}, {"against", v.against},
                             {"calibrated_in_the_same_call", v.calibrated_in_the_same_call}, {"cells", v.cells},
                             {"seconds", v.seconds}, {"repeat", v.repeat}, {"within_10", v.within_10},
                             {"within_15", v.within_15}, {"pairs_agreeing", v.pairs_agreeing},
                             {"pairs_counted", v.pairs_counted}});
        if (v.recorded)
            validated.back()["recorded"] = true;
        else
            validated.back()["seed"] = v.seed;
        if (v.host_fastest > 0) {
            validated.back()["host_slowest"] = v.host_slowest;
            validated.back()["host_fastest"] = v.host_fastest;
        }
    }
    written["validated"] = std::move(validated);
    return written;
}

}  // namespace

double SizeCurve::at(double bytes) const { return at_log_size(sizes_bytes, values, bytes); }

double SizeCurve::scaled_at(double bytes) const {
    const std::size_t count = std::min(sizes_bytes.size(), values.size());
    if (count == 0) return 0;
    if (bytes < sizes_bytes.front()) return values.front() * bytes / sizes_bytes.front();
    if (bytes > sizes_bytes[count - 1]) return values[count - 1] * bytes / sizes_bytes[count - 1];
    return at(bytes);
}

double HostLoadCurve::at(const std::vector<double>& axis, const std::vector<double>& factors, double others) {
    const std::size_t count = std::min(axis.size(), factors.size());
    if (count == 0) return 1.0;
    if (!(others > axis.front())) return factors.front();
    if (others >= axis[count - 1]) return factors[count - 1];
    const auto upper = std::lower_bound(axis.begin(), axis.begin() + static_cast<std::ptrdiff_t>(count), others);
    const auto i = static_cast<std::size_t>(upper - axis.begin());
    const double t = (others - axis[i - 1]) / (axis[i] - axis[i - 1]);
    return factors[i - 1] + t * (factors[i] - factors[i - 1]);
}

double MemoryThroughputCurve::one_thread(const std::vector<double>& axis, const std::vector<double>& totals) {
    if (axis.empty() || totals.size() != axis.size()) return 0;
    return totals.front() / axis.front();
}

double MemoryThroughputCurve::share(const std::vector<double>& axis, const std::vector<double>& totals, double streams) {
    const double alone = one_thread(axis, totals);
    if (!(alone > 0) || !(streams > 1)) return 1.0;
    const double total = streams <= axis.front() ? alone * streams : HostLoadCurve::at(axis, totals, streams);
    return std::min(1.0, total / (streams * alone));
}

double HostLoadCurve::pageable_h2d_at(double others_now, double bytes) const {
    // The measured sizes nearest `bytes` on either side, calibrate's own batch among them (the
    // reader keeps every other size off it); held flat beyond the ends, as at_log_size does.
    struct Point {
        double bytes;
        const std::vector<double>* by_others;
    };
    std::optional<Point> below, above;  // at or under `bytes`; over it
    const auto consider = [&](Point point) {
        if (point.bytes <= bytes) {
            if (!below || point.bytes > below->bytes) below = point;
        } else if (!above || point.bytes < above->bytes) {
            above = point;
        }
    };
    consider({static_cast<double>(kCalibrationBatchBytes), &pageable_h2d});
    for (const PageableFactorsAtSize& at_size : pageable_h2d_by_size) consider({at_size.bytes, &at_size.by_others});
    const auto factor = [&](const Point& point) { return at(others, *point.by_others, others_now); };
    if (!below) return factor(*above);  // NaN lands here too
    if (!above || below->bytes == bytes) return factor(*below);
    return between_log_sizes(below->bytes, factor(*below), above->bytes, factor(*above), bytes);
}

double HostSizeFactors::at(const std::vector<double>& factors, double bytes) const {
    if (sizes_bytes.empty() || factors.size() != sizes_bytes.size()) return 1.0;
    return at_log_size(sizes_bytes, factors, bytes);
}

double cross_node_slowdown(double remote_fraction, double factor) {
    if (!(remote_fraction > 0) || !(factor > 0)) return 1.0;
    const double remote = std::min(remote_fraction, 1.0);
    return 1.0 - remote + remote / factor;
}

double HardwareProfile::h2d_bytes_per_s(double bytes, bool pinned) const {
    return (pinned ? h2d_pinned_gb_per_s : h2d_pageable_gb_per_s).at(bytes) * 1e9;
}

HardwareProfile profile_from_json(const json& json_profile) {
    const Reader top(json_profile, "profile");
    HardwareProfile profile;
    profile.name = top.text("name");
    if (profile.name.empty()) reject(top.path_of("name"), "\"\"", "a non-empty string");
    profile.description = top.text("description");
    profile.source = top.text("source", kMaxSourceChars);

    const Reader link = top.object("link");
    profile.link_name = link.text("name");
    profile.link_gb_per_s = link.number("theoretical_gb_per_s", kBandwidth);

    const Reader copy = top.object("copy");
    const std::vector<double> sizes = copy.sizes("sizes_bytes");
    const std::string sizes_field = copy.path_of("sizes_bytes");
    profile.h2d_pinned_gb_per_s = copy.curve("h2d_pinned_gb_per_s", kBandwidth, sizes, sizes_field);
    profile.h2d_pageable_gb_per_s = copy.curve("h2d_pageable_gb_per_s", kBandwidth, sizes, sizes_field);
    profile.d2h_pinned_gb_per_s = copy.curve("d2h_pinned_gb_per_s", kBandwidth, sizes, sizes_field);
    profile.d2h_pageable_gb_per_s = copy.curve("d2h_pageable_gb_per_s", kBandwidth, sizes, sizes_field);
    const auto optional_curve = [&](const char* key, const SizeCurve& otherwise) {
        return copy.has(key) ? copy.curve(key, kBandwidth, sizes, sizes_field) : otherwise;
    };
    profile.h2d_write_combined_gb_per_s = optional_curve("h2d_write_combined_gb_per_s", profile.h2d_pinned_gb_per_s);
    profile.d2h_write_combined_gb_per_s = optional_curve("d2h_write_combined_gb_per_s", profile.d2h_pinned_gb_per_s);
    profile.pageable_hold_fraction = copy.number("pageable_hold_fraction", kFraction);
    profile.pageable_overlaps_compute = copy.boolean("pageable_overlaps_compute");
    profile.copy_call_us = copy.number("copy_call_us", kCost);

    profile.device_read_gb_per_s = top.object("compute").number("device_read_gb_per_s", kBandwidth);

    const Reader host = top.object("host");
    profile.host_cores = static_cast<int>(host.number("cores", kCores));
    profile.memcpy_gb_per_s = host.number("memcpy_gb_per_s", kBandwidth);
    profile.memcpy_to_pinned_gb_per_s = host.number("memcpy_to_pinned_gb_per_s", kBandwidth);
    const auto optional_rate = [&](const char* key) { return host.has(key) ? host.number(key, kBandwidth) : 0.0; };
    profile.first_touch_gb_per_s = optional_rate("first_touch_gb_per_s");
    profile.fill_gb_per_s = optional_rate("fill_gb_per_s");
    if (host.has("free_pageable_us")) profile.free_pageable_us = host.own_curve("free_pageable_us", kCost);
    if (host.has("free_new_pages_us")) profile.free_new_pages_us = host.own_curve("free_new_pages_us", kCost);
    if (host.has("pipeline_free_us")) profile.pipeline_free_us = host.own_curve("pipeline_free_us", kCost);
    if (host.has("pipeline_host_register_us"))
        profile.pipeline_host_register_us = host.own_curve("pipeline_host_register_us", kCost);
    if (host.has("pipeline_host_alloc_us")) profile.pipeline_host_alloc_us = host.own_curve("pipeline_host_alloc_us", kCost);
    if (host.has("pipeline_host_alloc_workers_us"))
        profile.pipeline_host_alloc_workers_us = host.own_curve("pipeline_host_alloc_workers_us", kCost);
    if (host.has("pipeline_worker_fill_gb_per_s"))
        profile.pipeline_worker_fill_gb_per_s = host.own_curve("pipeline_worker_fill_gb_per_s", kBandwidth);
    if (host.has("pipeline_worker_collate_gb_per_s"))
        profile.pipeline_worker_collate_gb_per_s = host.own_curve("pipeline_worker_collate_gb_per_s", kBandwidth);
    if (host.has("pipeline_alloc_workers_fill_gb_per_s"))
        profile.pipeline_alloc_workers_fill_gb_per_s = host.own_curve("pipeline_alloc_workers_fill_gb_per_s", kBandwidth);
    if (host.has("pipeline_alloc_workers_collate_gb_per_s"))
        profile.pipeline_alloc_workers_collate_gb_per_s =
            host.own_curve("pipeline_alloc_workers_collate_gb_per_s", kBandwidth);
    if (host.has("pipeline_alloc_workers_free_us"))
        profile.pipeline_alloc_workers_free_us = host.own_curve("pipeline_alloc_workers_free_us", kCost);
    if (host.has("under_load")) {
        const Reader load = host.object("under_load");
        HostLoadCurve& curve = profile.under_load;
        curve.others = load.increasing("others", kThreadCount, "an array of thread counts, increasing", "thread count");
        const std::string axis = load.path_of("others");
        curve.fill = load.curve("fill", kFactor, curve.others, axis).values;
        curve.first_touch = load.curve("first_touch", kFactor, curve.others, axis).values;
        curve.memcpy_to_pinned = load.curve("memcpy_to_pinned", kFactor, curve.others, axis).values;
        curve.pageable_h2d = load.curve("pageable_h2d", kFactor, curve.others, axis).values;
        curve.pageable_h2d_by_size = pageable_factors_by_size(load, curve.others, axis);
        curve.free_pageable = load.curve("free_pageable", kCostFactor, curve.others, axis).values;
        if (load.has("host_alloc")) curve.host_alloc = load.curve("host_alloc", kCostFactor, curve.others, axis).values;
        if (load.has("host_register"))
            curve.host_register = load.curve("host_register", kCostFactor, curve.others, axis).values;
        if (load.has("all_threads")) {
            const Reader all = load.object("all_threads");
            MemoryThroughputCurve& memory = curve.all_threads;
            memory.threads = all.increasing("threads", kCores, "an array of thread counts from 1, increasing", "thread count");
            const std::string threads_axis = all.path_of("threads");
            memory.copy_gb_per_s = all.curve("copy_gb_per_s", kBandwidth, memory.threads, threads_axis).values;
            memory.fill_gb_per_s = all.curve("fill_gb_per_s", kBandwidth, memory.threads, threads_axis).values;
        }
    }
    if (host.has("by_batch_size")) {
        const Reader by_size = host.object("by_batch_size");
        HostSizeFactors& factors = profile.by_batch_size;
        factors.sizes_bytes = by_size.sizes("sizes_bytes");
        const std::string axis = by_size.path_of("sizes_bytes");
        factors.collate = by_size.curve("collate", kSizeFactor, factors.sizes_bytes, axis).values;
        if (by_size.has("collate_new_pages"))
            factors.collate_new_pages = by_size.curve("collate_new_pages", kSizeFactor, factors.sizes_bytes, axis).values;
        factors.pin = by_size.curve("pin", kSizeFactor, factors.sizes_bytes, axis).values;
    }
    profile.host_alloc_us = host.own_curve("host_alloc_us", kCost);
    profile.free_host_us = host.own_curve("free_host_us", kCost);
    profile.host_register_us = host.own_curve("host_register_us", kCost);
    profile.host_unregister_us = host.own_curve("host_unregister_us", kCost);
    if (host.has("waits_for_device")) {
        const Reader waits = host.object("waits_for_device");
        PageLockingWaits& w = profile.waits_for_device;
        for (auto [key, flag] : {std::pair{"host_alloc", &w.host_alloc}, std::pair{"free_host", &w.free_host},
                                 std::pair{"host_register", &w.host_register},
                                 std::pair{"host_unregister", &w.host_unregister}})
            if (waits.has(key)) *flag = waits.boolean(key);
        // What profiles of before 2026-11-26 measured of the driver's lock.
        if (waits.has("one_at_a_time") && !host.has("driver_lock"))
            profile.driver_lock.while_free_waits.host_alloc = waits.boolean("one_at_a_time");
    }
    if (host.has("driver_lock")) {
        const Reader lock = host.object("driver_lock");
        for (const DriverLockField& set : kDriverLockFields) {
            if (!lock.has(set.key)) continue;
            const Reader calls = lock.object(set.key);
            for (const DriverWaiterField& call : kDriverWaiterFields)
                if (calls.has(call.key)) (profile.driver_lock.*set.waiters).*call.flag = calls.boolean(call.key);
        }
    }

    if (host.has("unmap_waits_for_host_register"))
        profile.unmap_waits_for_host_register = host.number("unmap_waits_for_host_register", kFraction);

    if (top.has("trust")) profile.trust = trust_from(top.object("trust"));

    if (top.has("numa")) {
        const Reader numa = top.object("numa");
        profile.cross_node_h2d_factor = numa.number("cross_node_h2d_factor", kCrossNodeFactor);
        profile.cross_node_memcpy_factor = numa.number("cross_node_memcpy_factor", kCrossNodeFactor);
        profile.numa_source = numa.text("source");
        if (profile.numa_source.empty())
            reject(numa.path_of("source"), "\"\"", "where the factors come from: a measurement, or what they are estimated from");
    }
    return profile;
}

json to_json(const HardwareProfile& profile) {
    const std::vector<double>& sizes = profile.h2d_pinned_gb_per_s.sizes_bytes;
    json written = json{
        {"name", profile.name},
        {"description", profile.description},
        {"source", profile.source},
        {"link", {{"name", profile.link_name}, {"theoretical_gb_per_s", profile.link_gb_per_s}}},
        {"copy",
         {
             {"sizes_bytes", sizes_json(sizes)},
             {"h2d_pinned_gb_per_s", values_at(profile.h2d_pinned_gb_per_s, sizes)},
             {"h2d_pageable_gb_per_s", values_at(profile.h2d_pageable_gb_per_s, sizes)},
             {"d2h_pinned_gb_per_s", values_at(profile.d2h_pinned_gb_per_s, sizes)},
             {"d2h_pageable_gb_per_s", values_at(profile.d2h_pageable_gb_per_s, sizes)},
             {"pageable_hold_fraction", profile.pageable_hold_fraction},
             {"pageable_overlaps_compute", profile.pageable_overlaps_compute},
             {"copy_call_us", profile.copy_call_us},
         }},
        {"compute", {{"device_read_gb_per_s", profile.device_read_gb_per_s}}},
        {"host",
         {
             {"cores", profile.host_cores},
             {"memcpy_gb_per_s", profile.memcpy_gb_per_s},
             {"memcpy_to_pinned_gb_per_s", profile.memcpy_to_pinned_gb_per_s},
             {"host_alloc_us", own_curve_json(profile.host_alloc_us)},
             {"free_host_us", own_curve_json(profile.free_host_us)},
             {"host_register_us", own_curve_json(profile.host_register_us)},
             {"host_unregister_us", own_curve_json(profile.host_unregister_us)},
         }},
    };
    if (profile.first_touch_gb_per_s > 0) written["host"]["first_touch_gb_per_s"] = profile.first_touch_gb_per_s;
    if (profile.fill_gb_per_s > 0) written["host"]["fill_gb_per_s"] = profile.fill_gb_per_s;
    if (!profile.free_pageable_us.empty()) written["host"]["free_pageable_us"] = own_curve_json(profile.free_pageable_us);
    if (!profile.free_new_pages_us.empty()) written["host"]["free_new_pages_us"] = own_curve_json(profile.free_new_pages_us);
    if (!profile.pipeline_free_us.empty()) written["host"]["pipeline_free_us"] = own_curve_json(profile.pipeline_free_us);
    if (!profile.pipeline_host_register_us.empty())
        written["host"]["pipeline_host_register_us"] = own_curve_json(profile.pipeline_host_register_us);
    if (!profile.pipeline_host_alloc_us.empty())
        written["host"]["pipeline_host_alloc_us"] = own_curve_json(profile.pipeline_host_alloc_us);
    if (!profile.pipeline_host_alloc_workers_us.empty())
        written["host"]["pipeline_host_alloc_workers_us"] = own_curve_json(profile.pipeline_host_alloc_workers_us);
    if (!profile.pipeline_worker_fill_gb_per_s.empty())
        written["host"]["pipeline_worker_fill_gb_per_s"] = own_curve_json(profile.pipeline_worker_fill_gb_per_s);
    if (!profile.pipeline_worker_collate_gb_per_s.empty())
        written["host"]["pipeline_worker_collate_gb_per_s"] = own_curve_json(profile.pipeline_worker_collate_gb_per_s);
    if (!profile.pipeline_alloc_workers_fill_gb_per_s.empty())
        written["host"]["pipeline_alloc_workers_fill_gb_per_s"] = own_curve_json(profile.pipeline_alloc_workers_fill_gb_per_s);
    if (!profile.pipeline_alloc_workers_collate_gb_per_s.empty())
        written["host"]["pipeline_alloc_workers_collate_gb_per_s"] =
            own_curve_json(profile.pipeline_alloc_workers_collate_gb_per_s);
    if (!profile.pipeline_alloc_workers_free_us.empty())
        written["host"]["pipeline_alloc_workers_free_us"] = own_curve_json(profile.pipeline_alloc_workers_free_us);
    if (!profile.under_load.empty()) {
        const HostLoadCurve& curve = profile.under_load;
        written["host"]["under_load"] = json{{"others", curve.others},
                                             {"fill", curve.fill},
                                             {"first_touch", curve.first_touch},
                                             {"memcpy_to_pinned", curve.memcpy_to_pinned},
                                             {"pageable_h2d", curve.pageable_h2d},
                                             {"free_pageable", curve.free_pageable}};
        for (const PageableFactorsAtSize& at_size : curve.pageable_h2d_by_size)
            written["host"]["under_load"]["pageable_h2d_by_size"].push_back(
                json{{"bytes", size_json(at_size.bytes)}, {"by_others", at_size.by_others}});
        if (!curve.host_alloc.empty()) written["host"]["under_load"]["host_alloc"] = curve.host_alloc;
        if (!curve.host_register.empty()) written["host"]["under_load"]["host_register"] = curve.host_register;
        if (!curve.all_threads.empty())
            written["host"]["under_load"]["all_threads"] = json{{"threads", curve.all_threads.threads},
                                                                {"copy_gb_per_s", curve.all_threads.copy_gb_per_s},
                                                                {"fill_gb_per_s", curve.all_threads.fill_gb_per_s}};
    }
    if (profile.waits_for_device.any()) {
        const PageLockingWaits& w = profile.waits_for_device;
        written["host"]["waits_for_device"] = json{{"host_alloc", w.host_alloc},
                                                   {"free_host", w.free_host},
                                                   {"host_register", w.host_register},
                                                   {"host_unregister", w.host_unregister}};
    }
    if (profile.unmap_waits_for_host_register > 0)
        written["host"]["unmap_waits_for_host_register"] = profile.unmap_waits_for_host_register;
    // A set where no call waits is left out: absent says the same.
    for (const DriverLockField& set : kDriverLockFields) {
        const DriverWaiters& waiters = profile.driver_lock.*set.waiters;
        if (!waiters.any()) continue;
        for (const DriverWaiterField& call : kDriverWaiterFields)
            written["host"]["driver_lock"][set.key][call.key] = waiters.*call.flag;
    }
    if (!profile.by_batch_size.empty()) {
        const HostSizeFactors& factors = profile.by_batch_size;
        written["host"]["by_batch_size"] = json{{"sizes_bytes", sizes_json(factors.sizes_bytes)},
                                                {"collate", factors.collate},
                                                {"pin", factors.pin}};
        if (!factors.collate_new_pages.empty())
            written["host"]["by_batch_size"]["collate_new_pages"] = factors.collate_new_pages;
    }
    if (profile.cross_node_h2d_factor != 1.0 || profile.cross_node_memcpy_factor != 1.0 || !profile.numa_source.empty())
        written["numa"] = {{"cross_node_h2d_factor", profile.cross_node_h2d_factor},
                           {"cross_node_memcpy_factor", profile.cross_node_memcpy_factor},
                           {"source", profile.numa_source}};
    if (profile.trust != ProfileTrust{}) written["trust"] = trust_json(profile.trust);
    // The optional curves, where they say something the pinned ones do not.
    const auto add_optional = [&](const char* key, const SizeCurve& curve, const SizeCurve& pinned) {
        if (curve.empty()) return;
        json values = values_at(curve, sizes);
        if (values != values_at(pinned, sizes)) written["copy"][key] = std::move(values);
    };
    add_optional("h2d_write_combined_gb_per_s", profile.h2d_write_combined_gb_per_s, profile.h2d_pinned_gb_per_s);
    add_optional("d2h_write_combined_gb_per_s", profile.d2h_write_combined_gb_per_s, profile.d2h_pinned_gb_per_s);
    return written;
}

std::vector<std::string> builtin_profile_names() {
    std::vector<std::string> names;
    for (const EmbeddedFile& file : embedded_profiles()) names.push_back(file.name);
    std::sort(names.begin(), names.end());
    return names;
}

HardwareProfile load_profile(const std::string& name_or_path) {
    std::string reason;
    try {
        for (const EmbeddedFile& file : embedded_profiles())
            if (file.name == name_or_path) return profile_from_json(json::parse(file.contents));
        return profile_from_json(config_detail::read_json_file(name_or_path));
    } catch (const std::exception& error) {
        reason = error.what();
    }
    const std::string allowed = "a built-in profile (" + builtin_list() + ") or a profile JSON file (" + reason + ")";
    throw ConfigError(ConfigIssue{"device", name_or_path, allowed});
}

}  // namespace pinscope
