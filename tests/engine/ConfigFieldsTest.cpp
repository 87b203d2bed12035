// SPDX-License-Identifier: GPL-3.0-or-later
// The field table holds every LoaderConfig field once, and what users meet reads it: a config file
// writes and reads every field, a change description names each field that changed, a value out
// of range is refused with the table's range, and a choice is read by the names the table lists.
#include <cctype>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/config/ConfigFields.h"
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "tests/engine/EveryFieldChanged.h"

namespace pinscope {
namespace {

using nlohmann::json;


std::vector<std::string> table_keys() {
    std::vector<std::string> keys;
    for (const ConfigField& field : kConfigFields) keys.emplace_back(field.key);
    return keys;
}

std::vector<std::string> changed_keys(const LoaderConfig& before, const LoaderConfig& after) {
    std::vector<std::string> keys;
    for (const std::string& line : describe_changes(before, after)) keys.push_back(line.substr(0, line.find(':')));
    return keys;
}

ConfigIssue read_error(const json& object) {
    try {
        config_from_json(object);
    } catch (const ConfigError& error) {
        return error.issue();
    }
    ADD_FAILURE() << "no error reading " << object.dump();
    return {};
}

TEST(ConfigFields, KeysFlagsAndMembersAreEachInTheTableOnce) {
    std::set<std::string> keys, flags;
    for (const ConfigField& field : kConfigFields) {
        EXPECT_TRUE(keys.insert(std::string(field.key)).second) << field.key;
        EXPECT_TRUE(flags.insert(std::string(field.flag)).second) << field.flag;
        EXPECT_TRUE(field.flag.starts_with("--")) << field.flag;
        EXPECT_FALSE(field.help.empty()) << field.key;
        EXPECT_FALSE(field.value_name.empty()) << field.key;
        for (const ConfigField& other : kConfigFields)
            if (&other != &field) {
                EXPECT_TRUE(other.member != field.member) << field.key << " and " << other.key;
            }
        EXPECT_EQ(find_config_field(field.key), &field);
    }
    EXPECT_EQ(find_config_field("num_worker"), nullptr);
}

TEST(ConfigFields, AConfigFileWritesEveryFieldAndReadsItBack) {
    const LoaderConfig changed = test::every_field_changed();
    const json defaults = to_json(LoaderConfig{});
    const json written = to_json(changed);
    ASSERT_EQ(written.size(), std::size(kConfigFields));
    for (const ConfigField& field : kConfigFields) {
        const std::string key(field.key);
        ASSERT_TRUE(written.contains(key)) << key;
        EXPECT_NE(written.at(key), defaults.at(key)) << key;
    }
    EXPECT_EQ(config_from_json(written), changed);
}

// A config holding one key changes that field alone; all of them, one by one, make the whole
// configuration, so no LoaderConfig member is outside the table.
TEST(ConfigFields, EachKeyCarriesItsOwnFieldAndTogetherAllOfThem) {
    const LoaderConfig changed = test::every_field_changed();
    const json written = to_json(changed);
    LoaderConfig built;
    for (const ConfigField& field : kConfigFields) {
        const std::string key(field.key);
        const LoaderConfig one = config_from_json(json{{key, written.at(key)}});
        std::vector<std::string> expected{key};
        if (key == "batches") expected.emplace_back("seconds");  // one run length replaces the other
        EXPECT_EQ(changed_keys(LoaderConfig{}, one), expected);
        built = config_from_json(json{{key, written.at(key)}}, built);
    }
    EXPECT_EQ(built, changed);
}

TEST(ConfigFields, ChangeDescriptionsNameEveryChangedFieldInTableOrder) {
    const LoaderConfig changed = test::every_field_changed();
    EXPECT_EQ(changed_keys(LoaderConfig{}, changed), table_keys());
    for (const ConfigField& field : kConfigFields)
        EXPECT_NE(field_text(field, LoaderConfig{}), field_text(field, changed)) << field.key;
    EXPECT_EQ(field_text(config_field(&LoaderConfig::pin_memory), changed), "off");
    EXPECT_EQ(field_text(config_field(&LoaderConfig::cpu_us_per_sample), changed), "12.5");
    EXPECT_EQ(field_text(config_field(&LoaderConfig::topology_xml), LoaderConfig{}), "this machine");
}

TEST(ConfigFields, OutOfRangeValuesAreRefusedWithTheTablesRange) {
    for (const ConfigField& field : kConfigFields) {
        if (!field.range) continue;
        SCOPED_TRACE(std::string(field.key));
        const FieldRange& range = *field.range;
        const auto [lo, hi] = integer_range(field);
        const std::string allowed = allowed_text(field);
        if (!range.hi_physical_memory) {
            EXPECT_NE(allowed.find(std::to_string(static_cast<std::uint64_t>(range.hi))), std::string::npos) << allowed;
            EXPECT_EQ(hi, static_cast<std::uint64_t>(range.hi));
        }
        if (!field.unit.empty()) {
            EXPECT_NE(allowed.find(field.unit), std::string::npos) << allowed;
        }

        std::vector<json> outside;
        const bool whole = field.type != FieldType::Number;
        if (whole && hi < std::numeric_limits<std::uint64_t>::max()) outside.push_back(hi + 1);
        if (!whole) outside.push_back(range.hi * 2);
        if (whole && lo > 0) outside.push_back(lo - 1);
        if (!whole) outside.push_back(range.lo_exclusive ? range.lo : range.lo - 1);
        ASSERT_FALSE(outside.empty());
        for (const json& value : outside) {
            json object{{std::string(field.key), field.type == FieldType::Shape ? json::array({value}) : value}};
            object["pin_memory"] = false;  // no pinned footprint to fit the budget
            if (field.type == FieldType::Shape) object["batch_size"] = 1;
            const auto issues = find_config_issues(config_from_json(object));
            ASSERT_EQ(issues.size(), 1u) << object.dump();
            EXPECT_TRUE(issues[0].field.starts_with(field.key)) << issues[0].message();
            EXPECT_EQ(issues[0].allowed, allowed);
            EXPECT_NE(issues[0].message().find("expected " + allowed), std::string::npos) << issues[0].message();
        }
    }
    EXPECT_EQ(allowed_text(config_field(&LoaderConfig::num_workers)), "an integer from 0 to 256");
    EXPECT_EQ(allowed_text(config_field(&LoaderConfig::seconds)), "a number of seconds above 0 and at most 604800");
}

TEST(ConfigFields, ChoicesAreReadAndWrittenByTheTablesNames) {
    for (const ConfigField& field : kConfigFields) {
        if (field.choices.empty()) continue;
        SCOPED_TRACE(std::string(field.key));
        const std::string key(field.key);
        for (const FieldChoice& choice : field.choices) {
            const std::string name(choice.name);
            EXPECT_EQ(to_json(config_from_json(json{{key, name}})).at(key), name);
            std::string upper = name;
            for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            EXPECT_EQ(to_json(config_from_json(json{{key, upper}})).at(key), name);
            if (!choice.alias.empty()) {
                EXPECT_EQ(to_json(config_from_json(json{{key, std::string(choice.alias)}})).at(key), name);
            }
        }
        const ConfigIssue issue = read_error(json{{key, "no such choice"}});
        EXPECT_EQ(issue.field, key);
        for (const FieldChoice& choice : field.choices)
            EXPECT_NE(issue.allowed.find(choice.name), std::string::npos) << issue.allowed;
    }
    EXPECT_EQ(read_error(json{{"dtype", "f8"}}).allowed, "one of: f32, f16, bf16, u8, i32, i64, f64");
}

TEST(ConfigFields, AnUnknownKeyIsAnsweredWithTheTablesKeys) {
    const ConfigIssue issue = read_error(json{{"num_worker", 4}});
    std::string keys;
    for (const std::string& key : table_keys()) keys += (keys.empty() ? "" : ", ") + key;
    EXPECT_EQ(issue.allowed, "one of: " + keys);
}

TEST(ConfigFields, DefaultsAreSaidAsTheProgramsSayThem) {
    EXPECT_EQ(default_text(config_field(&LoaderConfig::batch_size)), "64");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::sample_shape)), "3x224x224");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::prefetch_factor)), "2 with workers");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::pin_memory)), "on");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::gpu_us_per_batch)), "2000");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::seconds)), "3");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::batches)), "unset");
    EXPECT_EQ(default_text(config_field(&LoaderConfig::topology_xml)), "this machine");
}

}  // namespace
}  // namespace pinscope
