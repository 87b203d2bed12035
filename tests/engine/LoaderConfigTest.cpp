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

#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/config/PinnedBudget.h"
#include "engine/memory/PinnedPool.h"
#include "engine/topology/CpuList.h"
#include "tests/engine/EveryFieldChanged.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

using nlohmann::json;
using namespace nlohmann::literals;

struct Case {
    std::string description;
    json patch;            // applied to the default configuration
    std::string field;     // the one field at fault; empty when the result is valid
    std::string contains;  // part of that issue's message
};

// Issues from reading the patch (thrown) or from validating the result.
std::vector<ConfigIssue> issues_of(const json& patch) {
    try {
        return find_config_issues(config_from_json(patch));
    } catch (const ConfigError& error) {
        return {error.issue()};
    }
}

std::string messages(const std::vector<ConfigIssue>& issues) {
    std::string text;
    for (const ConfigIssue& issue : issues) text += issue.message() + "\n";
    return text;
}

std::vector<Case> cases() {
    return {
        // Valid configurations.
        {"defaults", json::object(), "", ""},
        {"no workers and no prefetch", R"({"num_workers": 0})"_json, "", ""},
        {"prefetch with workers", R"({"num_workers": 8, "prefetch_factor": 4})"_json, "", ""},
        {"prefetch at its limits", R"({"num_workers": 1, "prefetch_factor": 64})"_json, "", ""},
        {"most workers", R"({"num_workers": 256, "sample_shape": [8]})"_json, "", ""},
        {"batches instead of seconds", R"({"batches": 100})"_json, "", ""},
        {"seconds replaces batches", R"({"batches": null, "seconds": 0.5})"_json, "", ""},
        {"a week of seconds", R"({"seconds": 604800})"_json, "", ""},
        {"most batches", R"({"batches": 1000000000})"_json, "", ""},
        {"largest batch size", R"({"batch_size": 65536, "sample_shape": [16]})"_json, "", ""},
        {"eight dimensions", R"({"sample_shape": [1, 2, 1, 2, 1, 2, 1, 1048576], "batch_size": 1})"_json, "", ""},
        {"integral float for an integer", R"({"num_workers": 2.0})"_json, "", ""},
        {"names in any case and long dtype names",
         R"({"dtype": "BFloat16", "pin_mode": "WORKER", "host": "Real"})"_json, "", ""},
        {"copy on the compute stream, blocking", R"({"copy_stream": "Compute", "non_blocking": false})"_json, "", ""},
        {"time limits", R"({"cpu_us_per_sample": 1000000, "gpu_us_per_batch": 0})"_json, "", ""},
        {"emulated with a profile", R"({"device": "emulated:h200-pcie5"})"_json, "", ""},
        {"first and last CUDA device", R"({"device": "cuda:0"})"_json, "", ""},
        {"cuda:63", R"({"device": "cuda:63", "host": "real"})"_json, "", ""},
        {"real host on the emulated device", R"({"host": "real"})"_json, "", ""},
        {"smallest budget with pin_memory off", R"({"pinned_budget_bytes": 16777216, "pin_memory": false})"_json, "",
         ""},
        {"pin_mode is ignored when pin_memory is off", R"({"pin_memory": false, "pin_mode": "register"})"_json, "", ""},
        {"no footprint limit when pin_memory is off",
         R"({"pin_memory": false, "batch_size": 4096, "num_workers": 16, "prefetch_factor": 8})"_json, "", ""},

        // Reading JSON: keys and types.
        {"unknown key", R"({"num_worker": 4})"_json, "num_worker",
         "num_worker is not allowed; expected one of: batch_size, sample_shape"},
        {"string for an integer", R"({"num_workers": "4"})"_json, "num_workers", "\"4\" is not allowed"},
        {"negative integer", R"({"num_workers": -1})"_json, "num_workers", "-1 is not allowed"},
        {"fractional integer", R"({"batch_size": 2.5})"_json, "batch_size", "2.5 is not allowed"},
        {"integer beyond 32 bits", R"({"batch_size": 4294967296})"_json, "batch_size", "from 0 to 4294967295"},
        {"negative budget", R"({"pinned_budget_bytes": -5})"_json, "pinned_budget_bytes", "-5 is not allowed"},
        {"number for a bool", R"({"pin_memory": 1})"_json, "pin_memory", "true or false"},
        {"string for prefetch", R"({"prefetch_factor": "2"})"_json, "prefetch_factor", "or null"},
        {"shape not an array", R"({"sample_shape": 3})"_json, "sample_shape", "an array of integers"},
        {"negative dimension", R"({"sample_shape": [3, -1]})"_json, "sample_shape[1]", "-1 is not allowed"},
        {"unknown dtype", R"({"dtype": "f8"})"_json, "dtype", "one of: f32, f16, bf16, u8, i32, i64, f64"},
        {"unknown pin mode", R"({"pin_mode": "mlock"})"_json, "pin_mode", "one of: pool, alloc, register, worker"},
        {"unknown host mode", R"({"host": "virtual"})"_json, "host", "one of: modeled, real, or null"},
        {"unknown copy stream", R"({"copy_stream": "default"})"_json, "copy_stream", "one of: side, compute"},
        {"bool for copy stream", R"({"copy_stream": true})"_json, "copy_stream", "true is not allowed"},
        {"string for seconds", R"({"seconds": "3"})"_json, "seconds", "a number, or null"},
        {"number for device", R"({"device": 0})"_json, "device", "a string"},
        {"both batches and seconds", R"({"batches": 10, "seconds": 2})"_json, "batches",
         "give either batches or seconds, not both"},

        // Validation: ranges.
        {"zero batch size", R"({"batch_size": 0})"_json, "batch_size", "expected an integer from 1 to 65536"},
        {"batch size too large", R"({"batch_size": 65537})"_json, "batch_size", "65537 is not allowed"},
        {"no dimensions", R"({"sample_shape": []})"_json, "sample_shape", "expected a shape of 1 to 8 dimensions"},
        {"nine dimensions", R"({"sample_shape": [1, 1, 1, 1, 1, 1, 1, 1, 1]})"_json, "sample_shape",
         "1 to 8 dimensions"},
        {"zero dimension", R"({"sample_shape": [3, 0, 224]})"_json, "sample_shape[1]", "from 1 to 1048576"},
        {"dimension too large", R"({"sample_shape": [1048577]})"_json, "sample_shape[0]", "1048577 is not allowed"},
        {"sample over 4 GiB", R"({"sample_shape": [1048576, 1024], "dtype": "f64", "batch_size": 1})"_json,
         "sample_shape", "1048576x1024 f64 is 8 GiB"},
        {"batch over 64 GiB", R"({"sample_shape": [1024, 1024, 1024], "dtype": "u8", "batch_size": 65})"_json,
         "batch_size", "the batch would be 65 GiB"},
        {"too many workers", R"({"num_workers": 257})"_json, "num_workers", "from 0 to 256"},
        {"prefetch zero", R"({"prefetch_factor": 0})"_json, "prefetch_factor", "from 1 to 64"},
        {"prefetch too large", R"({"prefetch_factor": 65})"_json, "prefetch_factor", "65 is not allowed"},
        {"prefetch without workers", R"({"num_workers": 0, "prefetch_factor": 2})"_json, "prefetch_factor",
         "prefetch_factor option could only be specified in multiprocessing"},
        {"negative CPU time", R"({"cpu_us_per_sample": -1})"_json, "cpu_us_per_sample", "-1 is not allowed"},
        {"CPU time too long", R"({"cpu_us_per_sample": 1000000.5})"_json, "cpu_us_per_sample",
         "1000000.5 is not allowed; expected a number of microseconds from 0 to 1000000"},
        {"GPU time too long", R"({"gpu_us_per_batch": 10000001})"_json, "gpu_us_per_batch", "from 0 to 10000000"},
        {"zero batches", R"({"batches": 0})"_json, "batches", "from 1 to 1000000000"},
        {"too many batches", R"({"batches": 1000000001})"_json, "batches", "1000000001 is not allowed"},
        {"zero seconds", R"({"seconds": 0})"_json, "seconds", "above 0 and at most 604800"},
        {"negative seconds", R"({"seconds": -2.5})"_json, "seconds", "-2.5 is not allowed"},
        {"more than a week", R"({"seconds": 604801})"_json, "seconds", "604801 is not allowed"},
        {"no run length", R"({"seconds": null})"_json, "batches", "a run length"},
        {"unknown device", R"({"device": "gpu"})"_json, "device", "gpu is not allowed"},
        {"empty device", R"({"device": ""})"_json, "device", "cuda:<N> with N from 0 to 63"},
        {"CUDA index too large", R"({"device": "cuda:64"})"_json, "device", "cuda:64 is not allowed"},
        {"CUDA without index", R"({"device": "cuda:"})"_json, "device", "cuda: is not allowed"},
        {"CUDA index not a number", R"({"device": "cuda:x"})"_json, "device", "cuda:x is not allowed"},
        {"negative CUDA index", R"({"device": "cuda:-1"})"_json, "device", "cuda:-1 is not allowed"},
        {"emulated without profile", R"({"device": "emulated:"})"_json, "device", "emulated:<profile name or file>"},
        {"modeled host on CUDA", R"({"device": "cuda", "host": "modeled"})"_json, "host",
         "modeled host needs the emulated device"},
        {"budget too small", R"({"pinned_budget_bytes": 16777215, "pin_memory": false})"_json,
         "pinned_budget_bytes", "from 16777216 to"},
        {"budget above physical memory",
         json{{"pinned_budget_bytes", physical_memory_bytes() + 1}, {"pin_memory", false}}, "pinned_budget_bytes",
         "this machine's physical memory"},

        // Validation: the pinned footprint.
        {"huge footprint over the default budget",
         R"({"batch_size": 4096, "num_workers": 16, "prefetch_factor": 8})"_json, "pinned_budget_bytes",
         "cannot be swapped out"},
        {"default footprint over a small budget", R"({"pinned_budget_bytes": 16777216})"_json, "pinned_budget_bytes",
         "would lock: up to 0.7 GiB (11 blocks of 64 MiB)"},
        {"small footprint fits a small budget",
         R"({"pinned_budget_bytes": 16777216, "batch_size": 1, "num_workers": 0})"_json, "", ""},
    };
}

TEST(LoaderConfigRules, EveryRule) {
    for (const Case& test : cases()) {
        SCOPED_TRACE(test.description + ": " + test.patch.dump());
        const std::vector<ConfigIssue> issues = issues_of(test.patch);
        if (test.field.empty()) {
            EXPECT_TRUE(issues.empty()) << messages(issues);
            continue;
        }
        ASSERT_EQ(issues.size(), 1u) << messages(issues);
        EXPECT_EQ(issues[0].field, test.field);
        EXPECT_NE(issues[0].message().find(test.contains), std::string::npos) << issues[0].message();
    }
}

TEST(LoaderConfigRules, FootprintMessageSaysWhatWhyAndWhatToChange) {
    const LoaderConfig config =
        config_from_json(R"({"batch_size": 4096, "num_workers": 16, "prefetch_factor": 8})"_json);
    ASSERT_GT(worst_case_pinned(config).bytes(), default_pinned_budget());
    const auto issues = find_config_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    const std::string message = issues[0].message();
    for (const char* part : {"pinned_budget_bytes: default (", "a quarter of physical memory",
                             "up to 524 GiB (131 blocks of 4096 MiB)", "cannot be swapped out or moved by the kernel",
                             "page cache", "OOM killer", "Lower num_workers, prefetch_factor or batch_size",
                             "raise pinned_budget_bytes"})
        EXPECT_NE(message.find(part), std::string::npos) << part << " in " << message;
}

TEST(LoaderConfigRules, ValidateThrowsTheFirstIssue) {
    LoaderConfig config;
    config.batch_size = 0;
    config.num_workers = 1000;
    EXPECT_EQ(find_config_issues(config).size(), 2u);
    try {
        validate(config);
        FAIL() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "batch_size");
        EXPECT_STREQ(error.what(), "batch_size: 0 is not allowed; expected an integer from 1 to 65536");
    }
    EXPECT_NO_THROW(validate(LoaderConfig{}));
}

TEST(LoaderConfigRules, HugeShapeDoesNotOverflow) {
    LoaderConfig config;
    config.sample_shape = std::vector<std::uint32_t>(8, 1048576);
    const auto issues = find_config_issues(config);
    ASSERT_EQ(issues.size(), 1u) << messages(issues);
    EXPECT_EQ(issues[0].field, "sample_shape");
}

TEST(LoaderConfigFields, DerivedSizes) {
    LoaderConfig config;
    EXPECT_EQ(config.sample_bytes(), 3u * 224 * 224 * 4);
    EXPECT_EQ(config.batch_bytes(), 64u * 3 * 224 * 224 * 4);
    config.dtype = DType::BF16;
    EXPECT_EQ(config.sample_bytes(), 3u * 224 * 224 * 2);
}

TEST(LoaderConfigFields, PrefetchAndOutstanding) {
    LoaderConfig config;
    EXPECT_EQ(config.effective_prefetch_factor(), 2u);
    EXPECT_EQ(config.max_outstanding(), 8u);
    config.prefetch_factor = 3;
    EXPECT_EQ(config.max_outstanding(), 12u);
    config.num_workers = 0;
    EXPECT_EQ(config.effective_prefetch_factor(), 0u);
    EXPECT_EQ(config.max_outstanding(), 1u);
}

TEST(LoaderConfigFields, DeviceAndHost) {
    LoaderConfig config;
    EXPECT_FALSE(config.is_cuda());
    EXPECT_EQ(config.effective_host(), HostMode::Modeled);
    config.device = "cuda:1";
    EXPECT_TRUE(config.is_cuda());
    EXPECT_EQ(config.effective_host(), HostMode::Real);
    config.device = "cuda";
    EXPECT_TRUE(config.is_cuda());
    config.device = "cudax";
    EXPECT_FALSE(config.is_cuda());
    config.host = HostMode::Real;
    EXPECT_EQ(config.effective_host(), HostMode::Real);
}

TEST(LoaderConfigFields, EnumNames) {
    EXPECT_EQ(dtype_size(DType::U8), 1u);
    EXPECT_EQ(dtype_size(DType::F16), 2u);
    EXPECT_EQ(dtype_size(DType::I32), 4u);
    EXPECT_EQ(dtype_size(DType::F64), 8u);
    for (const DType dtype : {DType::F32, DType::F16, DType::BF16, DType::U8, DType::I32, DType::I64, DType::F64})
        EXPECT_EQ(parse_dtype(to_string(dtype)), dtype);
    EXPECT_EQ(parse_dtype("FLOAT16"), DType::F16);
    EXPECT_EQ(parse_dtype("int64"), DType::I64);
    EXPECT_EQ(parse_dtype("float"), std::nullopt);
    EXPECT_EQ(parse_dtype(""), std::nullopt);
    EXPECT_EQ(to_string(PinMode::Register), "register");
    EXPECT_EQ(parse_pin_mode("Alloc"), PinMode::Alloc);
    EXPECT_EQ(parse_pin_mode("pools"), std::nullopt);
    EXPECT_EQ(to_string(HostMode::Modeled), "modeled");
    EXPECT_EQ(parse_host_mode("REAL"), HostMode::Real);
    EXPECT_EQ(to_string(CopyStream::Compute), "compute");
    EXPECT_EQ(to_string(CopyStream::Side), "side");
    EXPECT_EQ(parse_copy_stream("SIDE"), CopyStream::Side);
    EXPECT_EQ(parse_copy_stream("current"), std::nullopt);
    EXPECT_EQ(shape_to_string({3, 224, 224}), "3x224x224");
    EXPECT_EQ(shape_to_string({7}), "7");
}


TEST(LoaderConfigJson, RoundTrip) {
    for (const LoaderConfig& config : {LoaderConfig{}, test::every_field_changed()}) {
        const json object = to_json(config);
        EXPECT_EQ(config_from_json(object), config) << object.dump();
        EXPECT_EQ(config_from_json(json::parse(object.dump())), config);
    }
}

TEST(LoaderConfigJson, WritesEveryKeyWithNullForUnset) {
    const json object = to_json(LoaderConfig{});
    EXPECT_EQ(object.size(), 23u);
    EXPECT_TRUE(object.at("prefetch_factor").is_null());
    EXPECT_TRUE(object.at("batches").is_null());
    EXPECT_TRUE(object.at("host").is_null());
    EXPECT_TRUE(object.at("pinned_budget_bytes").is_null());
    EXPECT_EQ(object.at("seconds"), 3.0);
    EXPECT_EQ(object.at("dtype"), "f32");
    EXPECT_EQ(object.at("sample_shape"), R"([3, 224, 224])"_json);
    EXPECT_EQ(object.at("bind_workers"), "none");
    EXPECT_EQ(object.at("membind"), "none");
    EXPECT_EQ(object.at("copy_stream"), "side");
    EXPECT_EQ(object.at("topology_xml"), "");
    EXPECT_EQ(object.at("gpu_pci_bus_id"), "");
}

TEST(LoaderConfigJson, BadNumaValuesNameTheirKey) {
    const auto issue_of = [](const json& object) {
        try {
            config_from_json(object);
        } catch (const ConfigError& error) {
            return error.issue();
        }
        return ConfigIssue{};
    };
    const ConfigIssue bind = issue_of(json{{"bind_pin_thread", "3-1"}});
    EXPECT_EQ(bind.field, "bind_pin_thread");
    EXPECT_NE(bind.allowed.find("a CPU list such as 0-3,8"), std::string::npos) << bind.message();
    const ConfigIssue membind = issue_of(json{{"membind", "far"}});
    EXPECT_EQ(membind.field, "membind");
    EXPECT_EQ(membind.allowed, "one of: none, local, remote, interleave");
    EXPECT_EQ(issue_of(json{{"topology_xml", 3}}).field, "topology_xml");
    EXPECT_EQ(config_from_json(json{{"bind_consumer", "4-5,0"}}).bind_consumer.cpus, (std::vector<int>{0, 4, 5}));
}

TEST(ConfigValidation, NumaFieldsThatNeedNoTopology) {
    LoaderConfig config;
    config.device = "cuda:0";
    config.topology_xml = "2-socket-2-gpu";
    auto issues = find_config_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "topology_xml");
    EXPECT_NE(issues[0].allowed.find("only the emulated device"), std::string::npos) << issues[0].message();

    config = LoaderConfig{};
    config.gpu_pci_bus_id = "GPU 1";
    issues = find_config_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].message(), "gpu_pci_bus_id: GPU 1 is not allowed; expected a PCI bus id such as 0000:c1:00.0");
    config.gpu_pci_bus_id = "c1:00.0";
    EXPECT_TRUE(find_config_issues(config).empty());
    config.device = "cuda";
    issues = find_config_issues(config);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].field, "gpu_pci_bus_id");
}

TEST(LoaderConfigJson, AppliesOnlyGivenKeysAndOneRunLength) {
    const LoaderConfig base = test::every_field_changed();
    LoaderConfig config = config_from_json(R"({"num_workers": 9})"_json, base);
    LoaderConfig expected = base;
    expected.num_workers = 9;
    EXPECT_EQ(config, expected);

    config = config_from_json(R"({"seconds": 2})"_json, base);
    EXPECT_EQ(config.seconds, 2.0);
    EXPECT_EQ(config.batches, std::nullopt);
    config = config_from_json(R"({"batches": 5})"_json, config);
    EXPECT_EQ(config.batches, 5u);
    EXPECT_EQ(config.seconds, std::nullopt);
    config = config_from_json(R"({"prefetch_factor": null, "host": null})"_json, base);
    EXPECT_EQ(config.prefetch_factor, std::nullopt);
    EXPECT_EQ(config.host, std::nullopt);
}

TEST(LoaderConfigJson, TopLevelMustBeAnObject) {
    try {
        config_from_json(R"([1, 2])"_json);
        FAIL() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "config");
    }
}

TEST(LoaderConfigJson, DescribeChanges) {
    const LoaderConfig before;
    EXPECT_TRUE(describe_changes(before, before).empty());

    LoaderConfig after = before;
    after.pin_memory = false;
    after.num_workers = 8;
    after.prefetch_factor = 4;
    EXPECT_EQ(describe_changes(before, after),
              (std::vector<std::string>{"num_workers: 4 -> 8", "prefetch_factor: default (2) -> 4",
                                        "pin_memory: on -> off"}));

    after = before;
    after.sample_shape = {1, 28, 28};
    after.cpu_us_per_sample = 2.5;
    after.batches = 100;
    after.seconds.reset();
    after.host = HostMode::Real;
    after.pinned_budget_bytes = 1u << 30;
    EXPECT_EQ(describe_changes(before, after),
              (std::vector<std::string>{"sample_shape: 3x224x224 -> 1x28x28", "cpu_us_per_sample: 0 -> 2.5",
                                        "batches: unset -> 100", "seconds: 3 -> unset", "host: default -> real",
                                        "pinned_budget_bytes: default -> 1073741824"}));

    after = before;
    after.non_blocking = false;
    after.copy_stream = CopyStream::Compute;
    EXPECT_EQ(describe_changes(before, after),
              (std::vector<std::string>{"non_blocking: on -> off", "copy_stream: side -> compute"}));
}

TEST(LoaderConfigJson, AnUnsetPrefetchFactorReadsAsPyTorchsDefaultWhereWorkersUseIt) {
    LoaderConfig before;
    before.num_workers = 0;
    LoaderConfig after = before;
    after.num_workers = 2;
    EXPECT_EQ(describe_changes(before, after),
              (std::vector<std::string>{"num_workers: 0 -> 2", "prefetch_factor: unset -> default (2)"}));
    before = after;
    after.num_workers = 8;
    EXPECT_EQ(describe_changes(before, after), (std::vector<std::string>{"num_workers: 2 -> 8"}));
}

TEST(LoaderConfigJson, CopyStreamDefaultsToTheSideStreamWhereAFileDoesNotSayIt) {
    // A configuration saved before copy_stream existed runs as it did then.
    EXPECT_EQ(config_from_json(R"({"num_workers": 2})"_json).copy_stream, CopyStream::Side);
    EXPECT_EQ(config_from_json(R"({"copy_stream": "compute"})"_json).copy_stream, CopyStream::Compute);
}

class ConfigFileTest : public ::testing::Test {
protected:
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.push_back(entry.path().filename());
        std::sort(names.begin(), names.end());
        return names;
    }

    void write(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }

    static ConfigIssue load_error(const std::string& path) {
        try {
            load_config_file(path);
        } catch (const ConfigError& error) {
            return error.issue();
        }
        ADD_FAILURE() << "no error loading " << path;
        return {};
    }

    test::TempDir scratch_;
    const std::filesystem::path dir_ = scratch_.path();
};

TEST_F(ConfigFileTest, SaveAndLoad) {
    const std::string path = dir_ / "run.json";
    save_config_file(path, test::every_field_changed());
    EXPECT_EQ(load_config_file(path), test::every_field_changed());
    save_config_file(path, LoaderConfig{});  // replaces the file
    EXPECT_EQ(load_config_file(path), LoaderConfig{});
    EXPECT_EQ(entries(), std::vector<std::string>{"run.json"});
    const auto perms = std::filesystem::status(path).permissions();
    EXPECT_NE(perms & std::filesystem::perms::owner_read, std::filesystem::perms::none);
}

TEST_F(ConfigFileTest, LoadStartsFromBase) {
    write("partial.json", R"({"num_workers": 0})");
    const LoaderConfig config = load_config_file(dir_ / "partial.json", test::every_field_changed());
    EXPECT_EQ(config.num_workers, 0u);
    EXPECT_EQ(config.batch_size, 17u);
}

TEST_F(ConfigFileTest, SaveIntoMissingDirectoryThrowsAndLeavesNothing) {
    const std::string path = dir_ / "missing" / "run.json";
    try {
        save_config_file(path, LoaderConfig{});
        FAIL() << "no error";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()), "cannot write " + path + ": No such file or directory");
    }
    EXPECT_TRUE(entries().empty());
}

TEST_F(ConfigFileTest, LoadMissingFile) {
    const std::string path = dir_ / "absent.json";
    const ConfigIssue issue = load_error(path);
    EXPECT_EQ(issue.field, "config");
    EXPECT_EQ(issue.value, path);
    EXPECT_TRUE(issue.allowed.starts_with("a readable JSON file")) << issue.allowed;
    EXPECT_NE(issue.message().find("No such file or directory"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, LoadDirectory) {
    const ConfigIssue issue = load_error(dir_);
    EXPECT_EQ(issue.field, "config");
    EXPECT_NE(issue.message().find("it is a folder; only a regular file"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, LoadSyntaxError) {
    write("broken.json", "{\"num_workers\": 4,\n}");
    const ConfigIssue issue = load_error(dir_ / "broken.json");
    EXPECT_EQ(issue.field, "config");
    EXPECT_EQ(issue.value, (dir_ / "broken.json").string());
    EXPECT_NE(issue.message().find("parse error at line 2, column 1"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, LoadNonObject) {
    write("list.json", "[1, 2]");
    const ConfigIssue issue = load_error(dir_ / "list.json");
    EXPECT_EQ(issue.field, "config");
    EXPECT_NE(issue.message().find("a JSON object"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, LoadBadValueNamesTheKey) {
    write("bad.json", R"({"num_workers": -3})");
    try {
        load_config_file(dir_ / "bad.json");
        FAIL() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "num_workers");
    }
}

TEST_F(ConfigFileTest, AValueNestedDeepIsRefusedNotACrash) {
    write("deep.json", "{\"sample_shape\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
    const ConfigIssue issue = load_error(dir_ / "deep.json");
    EXPECT_EQ(issue.field, "config");
    EXPECT_NE(issue.message().find("nested deeper than 32 levels"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, ANestedValueIsShownByItsSize) {
    try {
        config_from_json(nlohmann::json::parse(R"({"num_workers": [[[1, 2]], 3]})"));
        FAIL() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().value, "an array of 2 items");
    }
}

TEST_F(ConfigFileTest, ANumberBeyondADoubleIsBadInputNotALibraryError) {
    write("big.json", R"({"cpu_us_per_sample": 1e400})");
    const ConfigIssue issue = load_error(dir_ / "big.json");
    EXPECT_EQ(issue.field, "config");
    EXPECT_NE(issue.message().find("a number beyond what a double holds"), std::string::npos) << issue.message();
    EXPECT_EQ(issue.message().find("json.exception"), std::string::npos) << issue.message();
}

TEST_F(ConfigFileTest, ARepeatedKeyIsRefusedNamingIt) {
    write("twice.json", R"({"num_workers": 1, "batches": 5, "num_workers": 8})");
    EXPECT_NE(load_error(dir_ / "twice.json").message().find("the key \"num_workers\" appears twice"), std::string::npos);
    write("nested.json", R"({"sample_shape": [1], "x": {"a": 1, "a": 2}})");
    EXPECT_NE(load_error(dir_ / "nested.json").message().find("\"a\" appears twice"), std::string::npos);
}

TEST_F(ConfigFileTest, AByteOrderMarkIsAcceptedAndAnEmptyFileRefused) {
    write("bom.json", "\xEF\xBB\xBF{\"num_workers\": 2}");
    EXPECT_EQ(load_config_file(dir_ / "bom.json").num_workers, 2u);
    write("empty.json", "");
    EXPECT_NE(load_error(dir_ / "empty.json").message().find("the file is empty"), std::string::npos);
}

TEST_F(ConfigFileTest, InvalidUtf8OrEscapesInAValueAreShownEscaped) {
    for (const std::string& bad : {std::string("f\xff"), std::string("\x1b[2J")}) {
        try {
            config_from_json(nlohmann::json{{"dtype", bad}});
            FAIL() << "no error";
        } catch (const ConfigError& error) {
            const std::string message = error.what();
            EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
            EXPECT_NE(message.find(bad == "f\xff" ? "\"f\\xff\"" : "\"\\x1b[2J\""), std::string::npos) << message;
        }
    }
}

TEST_F(ConfigFileTest, AHugeValueIsEchoedCutShort) {
    write("long.json", "{\"device\": \"" + std::string(1 << 20, 'x') + "\"}");
    const LoaderConfig config = load_config_file(dir_ / "long.json");
    const auto issues = find_config_issues(config);
    ASSERT_FALSE(issues.empty());
    EXPECT_LT(issues.front().message().size(), 600u);
    write("long-key.json", "{\"" + std::string(1 << 20, 'k') + "\": 1}");
    EXPECT_LT(load_error(dir_ / "long-key.json").message().size(), 1000u);
}

TEST(CpuList, TwentyThousandRangesHoldEachCpuOnce) {
    std::string list = "0-65535";
    for (int i = 0; i < 20000; ++i) list += ",0-65535";
    const auto cpus = parse_cpu_list(list);
    ASSERT_TRUE(cpus.has_value());
    EXPECT_EQ(cpus->size(), 65536u);
    EXPECT_EQ(parse_cpu_list("8,0-3,2-5,4"), (std::vector<int>{0, 1, 2, 3, 4, 5, 8}));
    EXPECT_EQ(parse_cpu_list("65536"), std::nullopt);
    EXPECT_EQ(parse_cpu_list("-5"), std::nullopt);
}

}  // namespace
}  // namespace pinscope
