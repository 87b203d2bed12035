// SPDX-License-Identifier: GPL-3.0-or-later
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/device/EmbeddedProfiles.h"
#include "engine/device/HardwareProfile.h"
#include "engine/text/Units.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

using nlohmann::json;

TEST(SizeCurve, InterpolatesOnLogSize) {
    const SizeCurve curve{{1024, 4096, 65536}, {10, 30, 50}};
    EXPECT_DOUBLE_EQ(curve.at(1024), 10);
    EXPECT_DOUBLE_EQ(curve.at(4096), 30);
    EXPECT_DOUBLE_EQ(curve.at(65536), 50);
    EXPECT_DOUBLE_EQ(curve.at(2048), 20);    // halfway in log2 between 2^10 and 2^12
    EXPECT_DOUBLE_EQ(curve.at(16384), 40);   // halfway between 2^12 and 2^16
    EXPECT_DOUBLE_EQ(curve.at(8192), 35);    // a quarter of the way
}

TEST(SizeCurve, HoldsFlatBeyondTheEnds) {
    const SizeCurve curve{{1024, 4096}, {10, 30}};
    EXPECT_DOUBLE_EQ(curve.at(1), 10);
    EXPECT_DOUBLE_EQ(curve.at(0), 10);
    EXPECT_DOUBLE_EQ(curve.at(1e12), 30);
    EXPECT_DOUBLE_EQ(SizeCurve{}.at(100), 0);
    EXPECT_DOUBLE_EQ((SizeCurve{{100}, {7}}.at(5000)), 7);
}

TEST(SizeCurve, ScaledGrowsWithSizeBeyondTheEnds) {
    const SizeCurve curve{{1024, 4096}, {10, 30}};
    EXPECT_DOUBLE_EQ(curve.scaled_at(512), 5);      // 10 * 512 / 1024
    EXPECT_DOUBLE_EQ(curve.scaled_at(0), 0);
    EXPECT_DOUBLE_EQ(curve.scaled_at(8192), 60);    // 30 * 8192 / 4096
    EXPECT_DOUBLE_EQ(curve.scaled_at(2048), 20);    // inside: as at()
    EXPECT_DOUBLE_EQ(curve.scaled_at(4096), 30);
    EXPECT_DOUBLE_EQ((SizeCurve{{38535168}, {10300}}.scaled_at(2 * 38535168.0)), 20600);
}

json builtin_json(const std::string& name) {
    for (const EmbeddedFile& file : embedded_profiles())
        if (file.name == name) return json::parse(file.contents);
    ADD_FAILURE() << "no built-in profile " << name;
    return {};
}

TEST(HardwareProfile, BuiltinH200Loads) {
    const std::vector<std::string> names = builtin_profile_names();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_NE(std::find(names.begin(), names.end(), kDefaultProfile), names.end());

    const HardwareProfile profile = load_profile(kDefaultProfile);
    EXPECT_EQ(profile.name, "h200-pcie5");
    EXPECT_EQ(profile.link_name, "PCIe Gen5 x16");
    EXPECT_DOUBLE_EQ(profile.h2d_pinned_gb_per_s.at(16 * kMiB), 54.2);
    EXPECT_DOUBLE_EQ(profile.h2d_bytes_per_s(16 * kMiB, true), 54.2e9);
    EXPECT_DOUBLE_EQ(profile.h2d_bytes_per_s(16 * kMiB, false), 17.8e9);
    EXPECT_DOUBLE_EQ(profile.d2h_pageable_gb_per_s.at(1 << 30), 19.2);
    EXPECT_FALSE(profile.pageable_overlaps_compute);
    EXPECT_EQ(profile.host_cores, 16);
    EXPECT_DOUBLE_EQ(profile.memcpy_to_pinned_gb_per_s, 15.3);
    EXPECT_DOUBLE_EQ(profile.host_alloc_us.at(38535168), 10300);
    EXPECT_DOUBLE_EQ(profile.device_read_gb_per_s, 4300);
}

TEST(HardwareProfile, JsonRoundTrip) {
    const json original = builtin_json(kDefaultProfile);
    const json written = to_json(profile_from_json(original));
    EXPECT_EQ(written, original) << written.dump(2);
    EXPECT_EQ(to_json(profile_from_json(written)), written);
    EXPECT_TRUE(written.at("copy").at("sizes_bytes").at(0).is_number_integer());
}

TEST(HardwareProfile, NumaFactorsAreOptionalAndSlowTheRemoteShare) {
    json without = builtin_json(kDefaultProfile);
    without.erase("numa");
    const HardwareProfile plain = profile_from_json(without);
    EXPECT_DOUBLE_EQ(plain.cross_node_h2d_factor, 1.0);
    EXPECT_DOUBLE_EQ(plain.cross_node_memcpy_factor, 1.0);
    EXPECT_FALSE(to_json(plain).contains("numa"));
    const HardwareProfile shipped = load_profile(kDefaultProfile);
    EXPECT_DOUBLE_EQ(shipped.cross_node_h2d_factor, 0.8);
    EXPECT_DOUBLE_EQ(shipped.cross_node_memcpy_factor, 0.6);
    EXPECT_NE(shipped.numa_source.find("estimated"), std::string::npos);
    EXPECT_DOUBLE_EQ(cross_node_slowdown(0, 0.5), 1.0);
    EXPECT_DOUBLE_EQ(cross_node_slowdown(1, 0.5), 2.0);
    EXPECT_DOUBLE_EQ(cross_node_slowdown(0.5, 0.5), 1.5);  // interleave: half the bytes at half the rate
}

TEST(HardwareProfile, WriteCombinedCurvesDefaultToPinned) {
    const HardwareProfile profile = load_profile(kDefaultProfile);
    EXPECT_EQ(profile.h2d_write_combined_gb_per_s.values, profile.h2d_pinned_gb_per_s.values);
    EXPECT_EQ(profile.d2h_write_combined_gb_per_s.values, profile.d2h_pinned_gb_per_s.values);
    EXPECT_EQ(profile.h2d_write_combined_gb_per_s.sizes_bytes, profile.h2d_pinned_gb_per_s.sizes_bytes);
    // Equal to the pinned curves, they are not written: the built-in file round-trips unchanged.
    EXPECT_FALSE(to_json(profile).at("copy").contains("h2d_write_combined_gb_per_s"));
    EXPECT_FALSE(to_json(profile).at("copy").contains("d2h_write_combined_gb_per_s"));
}

TEST(HardwareProfile, WriteCombinedCurvesRoundTrip) {
    json original = builtin_json(kDefaultProfile);
    original["copy"]["h2d_write_combined_gb_per_s"] = {7.5, 42.0, 54.0, 55.0, 55.4, 55.5};
    original["copy"]["d2h_write_combined_gb_per_s"] = {2.0, 3.0, 3.5, 3.6, 3.6, 3.6};
    const HardwareProfile profile = profile_from_json(original);
    EXPECT_DOUBLE_EQ(profile.h2d_write_combined_gb_per_s.at(1 << 20), 42.0);
    EXPECT_DOUBLE_EQ(profile.d2h_write_combined_gb_per_s.at(64 * kMiB), 3.6);
    EXPECT_DOUBLE_EQ(profile.d2h_pinned_gb_per_s.at(64 * kMiB), 55.2);  // the pinned curve is its own
    EXPECT_EQ(to_json(profile), original) << to_json(profile).dump(2);

    // Only one given: the other is the pinned curve and stays unwritten.
    original["copy"].erase("d2h_write_combined_gb_per_s");
    const json written = to_json(profile_from_json(original));
    EXPECT_TRUE(written.at("copy").contains("h2d_write_combined_gb_per_s"));
    EXPECT_FALSE(written.at("copy").contains("d2h_write_combined_gb_per_s"));
}

TEST(HardwareProfile, InvalidWriteCombinedCurvesNameTheField) {
    const auto field_of_error = [](const json& wc) {
        json profile = builtin_json(kDefaultProfile);
        profile["copy"]["d2h_write_combined_gb_per_s"] = wc;
        try {
            profile_from_json(profile);
        } catch (const ConfigError& error) {
            return error.issue().field + " | " + error.issue().allowed;
        }
        return std::string("no error");
    };
    EXPECT_EQ(field_of_error({1, 2, 3}),
              "profile.copy.d2h_write_combined_gb_per_s | one value per size in profile.copy.sizes_bytes (6)");
    EXPECT_EQ(field_of_error({1, 2, 3, 0, 5, 6}), "profile.copy.d2h_write_combined_gb_per_s[3] | a rate from 0.01 to 1000000 GB/s");
    EXPECT_EQ(field_of_error("fast"),
              "profile.copy.d2h_write_combined_gb_per_s | an array of numbers, one per size");
}

struct InvalidCase {
    std::string description;
    std::string pointer;         // JSON pointer into the built-in profile
    std::optional<json> value;   // the new value; none removes the key
    std::string field;
};

json mutated(const InvalidCase& test) {
    json operation{{"op", test.value ? "replace" : "remove"}, {"path", test.pointer}};
    if (test.value) operation["value"] = *test.value;
    return builtin_json(kDefaultProfile).patch(json::array({operation}));
}

TEST(HardwareProfile, InvalidProfilesNameTheField) {
    const std::vector<InvalidCase> cases{
        {"zero bandwidth", "/copy/h2d_pinned_gb_per_s/2", json(0), "profile.copy.h2d_pinned_gb_per_s[2]"},
        {"negative bandwidth", "/copy/d2h_pinned_gb_per_s/0", json(-1.5), "profile.copy.d2h_pinned_gb_per_s[0]"},
        {"bandwidth as text", "/copy/h2d_pageable_gb_per_s/1", json("fast"), "profile.copy.h2d_pageable_gb_per_s[1]"},
        {"sizes not increasing", "/copy/sizes_bytes/2", json(1048576), "profile.copy.sizes_bytes[2]"},
        {"zero size", "/copy/sizes_bytes/0", json(0), "profile.copy.sizes_bytes[0]"},
        {"no sizes", "/copy/sizes_bytes", json::array(), "profile.copy.sizes_bytes"},
        {"a value short", "/copy/d2h_pageable_gb_per_s/5", std::nullopt, "profile.copy.d2h_pageable_gb_per_s"},
        {"fraction above 1", "/copy/pageable_hold_fraction", json(1.5), "profile.copy.pageable_hold_fraction"},
        {"overlap not a bool", "/copy/pageable_overlaps_compute", json(0), "profile.copy.pageable_overlaps_compute"},
        {"negative call cost", "/copy/copy_call_us", json(-1), "profile.copy.copy_call_us"},
        {"no cores", "/host/cores", json(0), "profile.host.cores"},
        {"too many cores", "/host/cores", json(4097), "profile.host.cores"},
        {"fractional cores", "/host/cores", json(2.5), "profile.host.cores"},
        {"zero memcpy rate", "/host/memcpy_gb_per_s", json(0), "profile.host.memcpy_gb_per_s"},
        {"zero device read rate", "/compute/device_read_gb_per_s", json(0), "profile.compute.device_read_gb_per_s"},
        {"read rate of a broken measurement", "/compute/device_read_gb_per_s", json(2.1e-11),
         "profile.compute.device_read_gb_per_s"},
        {"zero link rate", "/link/theoretical_gb_per_s", json(0), "profile.link.theoretical_gb_per_s"},
        {"cost curve count", "/host/host_alloc_us/values", json{10300, 5}, "profile.host.host_alloc_us.values"},
        {"negative cost", "/host/free_host_us/values/0", json(-2), "profile.host.free_host_us.values[0]"},
        {"missing section", "/link", std::nullopt, "profile.link"},
        {"missing value", "/host/host_unregister_us", std::nullopt, "profile.host.host_unregister_us"},
        {"section not an object", "/compute", json(4300), "profile.compute"},
        {"name not a string", "/name", json(7), "profile.name"},
        {"empty name", "/name", json(""), "profile.name"},
        {"cross-node factor above 1", "/numa/cross_node_h2d_factor", json(1.2), "profile.numa.cross_node_h2d_factor"},
        {"zero cross-node factor", "/numa/cross_node_memcpy_factor", json(0), "profile.numa.cross_node_memcpy_factor"},
        {"factor without a source", "/numa/source", json(""), "profile.numa.source"},
        {"factor without its source", "/numa/source", std::nullopt, "profile.numa.source"},
        // Costs become integer nanoseconds: 1e300 us once overflowed the conversion and cost nothing.
        {"cost of 1e300 us", "/host/host_alloc_us/values/0", json(1e300), "profile.host.host_alloc_us.values[0]"},
        {"call cost beyond 10 s", "/copy/copy_call_us", json(1e8), "profile.copy.copy_call_us"},
        {"size beyond 1 TiB", "/host/free_host_us/sizes_bytes/0", json(1e300), "profile.host.free_host_us.sizes_bytes[0]"},
        {"size below a byte", "/host/free_host_us/sizes_bytes/0", json(1e-300), "profile.host.free_host_us.sizes_bytes[0]"},
        {"vanishing cross-node factor", "/numa/cross_node_h2d_factor", json(1e-300), "profile.numa.cross_node_h2d_factor"},
    };
    for (const InvalidCase& test : cases) {
        SCOPED_TRACE(test.description);
        try {
            profile_from_json(mutated(test));
            ADD_FAILURE() << "no error";
        } catch (const ConfigError& error) {
            EXPECT_EQ(error.issue().field, test.field) << error.what();
        }
    }
    EXPECT_THROW(profile_from_json(json::array()), ConfigError);
}

TEST(HardwareProfile, EscapesInNamesAreShownVisibly) {
    json profile = builtin_json(kDefaultProfile);
    profile["name"] = "evil\x1b]0;title\x07";
    profile["description"] = "red \x1b[31m\xc2\x9b";
    const HardwareProfile loaded = profile_from_json(profile);
    EXPECT_EQ(loaded.name, "evil\\x1b]0;title\\x07");
    EXPECT_EQ(loaded.description, "red \\x1b[31m\\xc2\\x9b");
}

// Calibrate's account of what it measured runs to about 4700 characters: it loads back whole, and
// a name or a source beyond its limit is cut short.
TEST(HardwareProfile, ACalibratedSourceLoadsBackWholeAndAHugeOneIsCutShort) {
    json profile = builtin_json(kDefaultProfile);
    const std::string account = std::string(6000, 'm') + " the pin thread's frees.";
    profile["source"] = account;
    EXPECT_EQ(profile_from_json(profile).source, account);
    profile["source"] = std::string(1 << 20, 'm');
    EXPECT_EQ(profile_from_json(profile).source, std::string(16384, 'm') + "...");
    profile["name"] = std::string(6000, 'n');
    EXPECT_EQ(profile_from_json(profile).name, std::string(4096, 'n') + "...");
}

TEST(HardwareProfile, AHugeTextValueIsEchoedCutShort) {
    json profile = builtin_json(kDefaultProfile);
    profile["host"]["cores"] = std::string(1 << 20, '7');
    try {
        profile_from_json(profile);
        ADD_FAILURE() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.host.cores");
        EXPECT_LT(std::string(error.what()).size(), 300u) << error.what();
    }
}

json with_under_load(json profile) {
    profile["host"]["under_load"] = json{{"others", {0, 1, 4}},
                                         {"fill", {1.0, 0.95, 0.7}},
                                         {"first_touch", {1.0, 0.9, 0.6}},
                                         {"memcpy_to_pinned", {1.0, 0.8, 0.5}},
                                         {"pageable_h2d", {0.6, 0.5, 0.4}},
                                         {"pageable_h2d_by_size",
                                          json::array({json{{"bytes", 8388608}, {"by_others", {0.5, 0.45, 0.4}}},
                                                       json{{"bytes", 100663296}, {"by_others", {0.9, 0.8, 0.7}}}})},
                                         {"free_pageable", {1.0, 1.5, 4.0}},
                                         {"all_threads", {{"threads", {1, 4, 16}},
                                                          {"copy_gb_per_s", {10.0, 25.0, 55.0}},
                                                          {"fill_gb_per_s", {6.0, 21.0, 57.0}}}}};
    return profile;
}

// Profiles calibrated before 2026-11-28 give a worker's pageable copy at other sizes in three
// shapes: they read as one list by size, written back as such; a size given twice is refused.
TEST(HostLoadCurve, TheOlderShapesOfThePageableFactorsReadAsOneListBySize) {
    json older = with_under_load(builtin_json(kDefaultProfile));
    json& load = older["host"]["under_load"];
    load.erase("pageable_h2d_by_size");
    load["pageable_h2d_small"] = {0.3, 0.2, 0.1};
    load["pageable_h2d_small_bytes"] = 2097152;
    load["pageable_h2d_large"] = {1.0, 0.9, 0.8};
    load["pageable_h2d_large_bytes"] = 268435456;
    load["pageable_h2d_more"] = json::array({json{{"bytes", 8388608}, {"by_others", {0.5, 0.45, 0.4}}}});
    const HostLoadCurve curve = profile_from_json(older).under_load;
    EXPECT_EQ(curve.pageable_h2d_by_size, (std::vector<PageableFactorsAtSize>{{2097152, {0.3, 0.2, 0.1}},
                                                                              {8388608, {0.5, 0.45, 0.4}},
                                                                              {268435456, {1.0, 0.9, 0.8}}}));
    const json written = to_json(profile_from_json(older)).at("host").at("under_load");
    EXPECT_FALSE(written.contains("pageable_h2d_small"));
    EXPECT_EQ(written.at("pageable_h2d_by_size").size(), 3u);
    load["pageable_h2d_more"][0]["bytes"] = 268435456;
    try {
        profile_from_json(older);
        ADD_FAILURE() << "a size given twice was accepted";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.host.under_load.pageable_h2d_more[0].bytes");
    }
}

TEST(HostLoadCurve, InterpolatesBetweenThreadCountsAndHoldsFlatBeyond) {
    const HardwareProfile profile = profile_from_json(with_under_load(builtin_json(kDefaultProfile)));
    const HostLoadCurve& curve = profile.under_load;
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.memcpy_to_pinned, 0), 1.0);
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.memcpy_to_pinned, 1), 0.8);
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.memcpy_to_pinned, 2), 0.7);  // a third of the way from 1 to 4
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.free_pageable, 4), 4.0);
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.pageable_h2d, 4), 0.4);
    EXPECT_DOUBLE_EQ(HostLoadCurve::at(curve.others, curve.first_touch, 15), 0.6);
    EXPECT_DOUBLE_EQ(HostLoadCurve::at({}, {}, 8), 1.0);  // not measured: no contention
}

TEST(HardwareProfile, FillRateAndFreeCostRoundTripAndAreOptional) {
    json original = builtin_json(kDefaultProfile);
    EXPECT_DOUBLE_EQ(profile_from_json(original).fill_gb_per_s, 0.0);
    EXPECT_TRUE(profile_from_json(original).free_pageable_us.empty());
    original["host"]["fill_gb_per_s"] = 9.5;
    original["host"]["free_pageable_us"] = json{{"sizes_bytes", {1048576, 38535168}}, {"values", {30.0, 1100.0}}};
    const HardwareProfile profile = profile_from_json(original);
    EXPECT_DOUBLE_EQ(profile.fill_gb_per_s, 9.5);
    EXPECT_DOUBLE_EQ(profile.free_pageable_us.at(38535168), 1100.0);
    EXPECT_EQ(to_json(profile), original);
}

TEST(HardwareProfile, ThePipelinesFreeAndPageLockingCostsRoundTripAndAreOptional) {
    const std::pair<const char*, SizeCurve HardwareProfile::*> costs[] = {
        {"pipeline_free_us", &HardwareProfile::pipeline_free_us},
        {"pipeline_host_register_us", &HardwareProfile::pipeline_host_register_us},
        {"pipeline_host_alloc_us", &HardwareProfile::pipeline_host_alloc_us},
        {"pipeline_host_alloc_workers_us", &HardwareProfile::pipeline_host_alloc_workers_us},
        {"pipeline_worker_fill_gb_per_s", &HardwareProfile::pipeline_worker_fill_gb_per_s},
        {"pipeline_worker_collate_gb_per_s", &HardwareProfile::pipeline_worker_collate_gb_per_s},
        {"pipeline_alloc_workers_fill_gb_per_s", &HardwareProfile::pipeline_alloc_workers_fill_gb_per_s},
        {"pipeline_alloc_workers_collate_gb_per_s", &HardwareProfile::pipeline_alloc_workers_collate_gb_per_s},
        {"pipeline_alloc_workers_free_us", &HardwareProfile::pipeline_alloc_workers_free_us}};
    for (const auto& [key, member] : costs) {
        json original = builtin_json(kDefaultProfile);
        EXPECT_TRUE((profile_from_json(original).*member).empty()) << key;
        EXPECT_FALSE(to_json(profile_from_json(original)).at("host").contains(key)) << key;
        original["host"][key] = json{{"sizes_bytes", {2097152, 134217728}}, {"values", {150.0, 9000.0}}};
        const HardwareProfile profile = profile_from_json(original);
        EXPECT_DOUBLE_EQ((profile.*member).at(134217728), 9000.0) << key;
        EXPECT_EQ(to_json(profile), original) << key;
        original["host"][key]["values"] = {150.0, -1.0};
        try {
            profile_from_json(original);
            ADD_FAILURE() << "a negative cost was accepted in " << key;
        } catch (const ConfigError& error) {
            EXPECT_NE(error.issue().field.find(key), std::string::npos) << error.issue().field;
        }
    }
}

TEST(HostLoadCurve, RoundTripsAndIsLeftOutWhenNotMeasured) {
    const json original = with_under_load(builtin_json(kDefaultProfile));
    EXPECT_EQ(to_json(profile_from_json(original)).at("host").at("under_load"), original.at("host").at("under_load"));
    EXPECT_FALSE(to_json(profile_from_json(builtin_json(kDefaultProfile))).at("host").contains("under_load"));
}

TEST(HostLoadCurve, InvalidCurvesNameTheField) {
    const auto field_of_error = [](const char* pointer, const json& value) {
        const json profile = with_under_load(builtin_json(kDefaultProfile))
                                 .patch(json::array({{{"op", "replace"}, {"path", pointer}, {"value", value}}}));
        try {
            profile_from_json(profile);
        } catch (const ConfigError& error) {
            return error.issue().field;
        }
        return std::string("no error");
    };
    EXPECT_EQ(field_of_error("/host/under_load/memcpy_to_pinned/1", json(0)), "profile.host.under_load.memcpy_to_pinned[1]");
    EXPECT_EQ(field_of_error("/host/under_load/free_pageable/0", json(-1)), "profile.host.under_load.free_pageable[0]");
    EXPECT_EQ(field_of_error("/host/under_load/pageable_h2d/2", json(3)), "profile.host.under_load.pageable_h2d[2]");
    EXPECT_EQ(field_of_error("/host/under_load/pageable_h2d_by_size/1/bytes", json(4194304)),
              "profile.host.under_load.pageable_h2d_by_size[1].bytes");
    EXPECT_EQ(field_of_error("/host/under_load/pageable_h2d_by_size/1/bytes", json(38535168)),
              "profile.host.under_load.pageable_h2d_by_size[1].bytes")
        << "calibrate's own batch is pageable_h2d's";
    EXPECT_EQ(field_of_error("/host/under_load/pageable_h2d_by_size/0/by_others/1", json(0)),
              "profile.host.under_load.pageable_h2d_by_size[0].by_others[1]");
    EXPECT_EQ(field_of_error("/host/under_load/pageable_h2d_by_size/1/by_others", json{0.9}),
              "profile.host.under_load.pageable_h2d_by_size[1].by_others");
    EXPECT_EQ(field_of_error("/host/under_load/others/2", json(1)), "profile.host.under_load.others[2]");
    EXPECT_EQ(field_of_error("/host/under_load/others/1", json(0.5)), "profile.host.under_load.others[1]");
    EXPECT_EQ(field_of_error("/host/under_load/first_touch", json{1.0, 0.9}), "profile.host.under_load.first_touch");
    EXPECT_EQ(field_of_error("/host/under_load/all_threads/threads/0", json(0)), "profile.host.under_load.all_threads.threads[0]");
    EXPECT_EQ(field_of_error("/host/under_load/all_threads/copy_gb_per_s/1", json(0)),
              "profile.host.under_load.all_threads.copy_gb_per_s[1]");
    EXPECT_EQ(field_of_error("/host/under_load/all_threads/fill_gb_per_s", json{6.0}), "profile.host.under_load.all_threads.fill_gb_per_s");
}

// Each of n threads streaming at once goes at the total measured with n over n, against one alone.
TEST(HostLoadCurve, StreamsShareWhatTheMachinesMemoryGaveThatManyThreads) {
    const HardwareProfile profile = profile_from_json(with_under_load(builtin_json(kDefaultProfile)));
    const MemoryThroughputCurve& all = profile.under_load.all_threads;
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::one_thread(all.threads, all.copy_gb_per_s), 10.0);
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.copy_gb_per_s, 1), 1.0);
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.copy_gb_per_s, 0.3), 1.0);
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.copy_gb_per_s, 4), 25.0 / 40);
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.copy_gb_per_s, 10), 40.0 / 100);  // half way from 4 to 16
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.copy_gb_per_s, 32), 55.0 / 320);  // 16's total, shared
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share(all.threads, all.fill_gb_per_s, 4), 21.0 / 24);
    EXPECT_DOUBLE_EQ(MemoryThroughputCurve::share({}, {}, 8), 1.0);  // not measured: no limit
    json before = with_under_load(builtin_json(kDefaultProfile));
    before["host"]["under_load"].erase("all_threads");
    const HardwareProfile without = profile_from_json(before);
    EXPECT_TRUE(without.under_load.all_threads.empty());
    EXPECT_FALSE(to_json(without).at("host").at("under_load").contains("all_threads"));
}

class ProfileFileTest : public ::testing::Test {
protected:
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name) << text;
        return dir_ / name;
    }

    static ConfigIssue load_error(const std::string& name_or_path) {
        try {
            load_profile(name_or_path);
        } catch (const ConfigError& error) {
            return error.issue();
        }
        ADD_FAILURE() << "no error loading " << name_or_path;
        return {};
    }

    test::TempDir scratch_;
    const std::filesystem::path dir_ = scratch_.path();
};

TEST_F(ProfileFileTest, LoadsFromFile) {
    json profile = builtin_json(kDefaultProfile);
    profile["name"] = "laptop";
    profile["host"]["cores"] = 2;
    const HardwareProfile loaded = load_profile(write("laptop.json", profile.dump()));
    EXPECT_EQ(loaded.name, "laptop");
    EXPECT_EQ(loaded.host_cores, 2);
}

TEST_F(ProfileFileTest, MissingFile) {
    const std::string path = dir_ / "absent.json";
    const ConfigIssue issue = load_error(path);
    EXPECT_EQ(issue.field, "device");
    EXPECT_EQ(issue.value, path);
    EXPECT_NE(issue.allowed.find("a built-in profile (h100-pcie5, h200-pcie5, h200-pcie5-calibrated) or a profile JSON file"), std::string::npos);
    EXPECT_NE(issue.allowed.find("No such file or directory"), std::string::npos) << issue.allowed;
}

TEST_F(ProfileFileTest, UnknownNameIsAMissingFile) {
    EXPECT_EQ(load_error("h100-sxm").field, "device");
}

TEST_F(ProfileFileTest, SyntaxError) {
    const ConfigIssue issue = load_error(write("broken.json", "{\"name\": "));
    EXPECT_EQ(issue.field, "device");
    EXPECT_NE(issue.allowed.find("parse error"), std::string::npos) << issue.allowed;
}

TEST_F(ProfileFileTest, InvalidProfileSaysWhichField) {
    json profile = builtin_json(kDefaultProfile);
    profile["host"]["cores"] = 0;
    const ConfigIssue issue = load_error(write("bad.json", profile.dump()));
    EXPECT_EQ(issue.field, "device");
    EXPECT_NE(issue.allowed.find("profile.host.cores: 0 is not allowed"), std::string::npos) << issue.allowed;
}

}  // namespace
}  // namespace pinscope
