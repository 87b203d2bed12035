// SPDX-License-Identifier: GPL-3.0-or-later
// combine-profiles: one profile for machines of one kind, each figure the median of theirs, saying
// how many machines and how far apart they were; profiles measured at other sizes are refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/calibrate/ProfileCombination.h"
#include "engine/config/ConfigError.h"
#include "engine/device/ProfileTrust.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

// The shipped profile with its host figures and pinned copies times `host` and `copy`.
HardwareProfile machine(double host, double copy) {
    HardwareProfile p = load_profile(kDefaultProfile);
    p.memcpy_gb_per_s *= host;
    p.memcpy_to_pinned_gb_per_s *= host;
    for (double& v : p.host_alloc_us.values) v /= host;
    for (double& v : p.h2d_pinned_gb_per_s.values) v *= copy;
    p.waits_for_device = {};
    p.trust = {};
    return p;
}

TEST(ProfileCombination, EachFigureIsTheMedianAndTheTrustSaysHowFarTheMachinesDiffered) {
    std::vector<NamedProfile> three{{"a.json", machine(1.0, 1.0)}, {"b.json", machine(2.0, 1.01)},
                                    {"c.json", machine(1.5, 0.99)}};
    three[1].profile.waits_for_device.free_host = true;  // one machine saw the free wait: the driver's
    const HardwareProfile base = load_profile(kDefaultProfile);
    const HardwareProfile combined = combine_profiles(three, "fleet", "pinscope-cli combine-profiles ...");
    EXPECT_EQ(combined.name, "fleet");
    EXPECT_DOUBLE_EQ(combined.memcpy_gb_per_s, base.memcpy_gb_per_s * 1.5);
    EXPECT_DOUBLE_EQ(combined.host_alloc_us.values.front(), base.host_alloc_us.values.front() / 1.5);
    EXPECT_DOUBLE_EQ(combined.h2d_pinned_gb_per_s.values.back(), base.h2d_pinned_gb_per_s.values.back());
    EXPECT_TRUE(combined.waits_for_device.free_host);
    EXPECT_FALSE(combined.waits_for_device.host_alloc);
    EXPECT_EQ(combined.trust.machines, 3);
    EXPECT_NEAR(combined.trust.host_spread, 2.0, 1e-9);
    EXPECT_NEAR(combined.trust.copy_spread, 1.01 / 0.99, 1e-9);
    EXPECT_TRUE(combined.trust.validations.empty());
    for (const char* part : {"median of 3 profiles' (3 machines)", "a.json: ", "c.json: "})
        EXPECT_NE(combined.source.find(part), std::string::npos) << part << " not in " << combined.source;
    // It loads back as written.
    EXPECT_EQ(to_json(profile_from_json(to_json(combined))), to_json(combined));
    EXPECT_NE(trust_summary(combined).find("The median of 3 machines of one kind (their pinned copies within 2 %, their "
                                           "host figures up to 2.0x apart)."),
              std::string::npos)
        << trust_summary(combined);
}

// Three machines alike, each with the same curves under load.
std::vector<NamedProfile> three_with_load_curves() {
    std::vector<NamedProfile> three{{"a.json", machine(1.0, 1.0)}, {"b.json", machine(1.0, 1.0)},
                                    {"c.json", machine(1.0, 1.0)}};
    for (NamedProfile& p : three) {
        HostLoadCurve& curve = p.profile.under_load;
        curve.others = {0, 4};
        curve.fill = curve.first_touch = curve.memcpy_to_pinned = curve.pageable_h2d = {1.0, 0.8};
        curve.free_pageable = {1.0, 1.2};
    }
    return three;
}

// Profiles calibrated before the limits were measured leave them out of the median.
TEST(ProfileCombination, WhatAllThreadsGotIsTheMedianOfTheProfilesThatMeasuredIt) {
    std::vector<NamedProfile> three = three_with_load_curves();
    three[0].profile.under_load.all_threads = {{1, 16}, {10, 40}, {6, 50}};
    three[1].profile.under_load.all_threads = {{1, 16}, {12, 60}, {6, 70}};
    const HardwareProfile combined = combine_profiles(three, "fleet", "pinscope-cli combine-profiles ...");
    EXPECT_EQ(combined.under_load.all_threads.threads, (std::vector<double>{1, 16}));
    EXPECT_EQ(combined.under_load.all_threads.copy_gb_per_s, (std::vector<double>{11, 50}));
    EXPECT_EQ(combined.under_load.all_threads.fill_gb_per_s, (std::vector<double>{6, 60}));
    three[0].profile.under_load.all_threads = three[1].profile.under_load.all_threads = {};
    EXPECT_TRUE(combine_profiles(three, "fleet", "...").under_load.all_threads.empty());
    EXPECT_TRUE(combined.under_load.pageable_h2d_by_size.empty()) << "none measured the staging at other sizes";
}

// Each size's factors are the median of the profiles that measured them there: a size only some
// machines measured (an older calibrate's) is theirs.
TEST(ProfileCombination, StagingAtEachSizeIsTheMedianOfTheProfilesThatMeasuredItThere) {
    std::vector<NamedProfile> three = three_with_load_curves();
    three[0].profile.under_load.pageable_h2d_by_size = {{8 << 20, {0.5, 0.25}}, {96 << 20, {1.0, 0.75}}};
    three[1].profile.under_load.pageable_h2d_by_size = {{8 << 20, {0.75, 0.5}}, {96 << 20, {1.5, 0.5}}};
    three[2].profile.under_load.pageable_h2d_by_size = {{16 << 20, {1.0, 1.0}}};
    const HardwareProfile combined = combine_profiles(three, "fleet", "pinscope-cli combine-profiles ...");
    EXPECT_EQ(combined.under_load.pageable_h2d_by_size,
              (std::vector<PageableFactorsAtSize>{
                  {8 << 20, {0.625, 0.375}}, {16 << 20, {1.0, 1.0}}, {96 << 20, {1.25, 0.625}}}));
}

TEST(ProfileCombination, ThePipelinesCostsAreTheMediansOfTheProfilesThatMeasuredThem) {
    for (SizeCurve HardwareProfile::*member : {&HardwareProfile::pipeline_free_us,
                                               &HardwareProfile::pipeline_host_register_us,
                                               &HardwareProfile::pipeline_host_alloc_us,
                                               &HardwareProfile::pipeline_host_alloc_workers_us,
                                               &HardwareProfile::pipeline_worker_fill_gb_per_s,
                                               &HardwareProfile::pipeline_worker_collate_gb_per_s,
                                               &HardwareProfile::pipeline_alloc_workers_fill_gb_per_s,
                                               &HardwareProfile::pipeline_alloc_workers_collate_gb_per_s,
                                               &HardwareProfile::pipeline_alloc_workers_free_us}) {
        std::vector<NamedProfile> three{{"a.json", machine(1.0, 1.0)}, {"b.json", machine(1.0, 1.0)},
                                        {"c.json", machine(1.0, 1.0)}};
        three[0].profile.*member = SizeCurve{{2 << 20, 128 << 20}, {100, 8000}};
        three[1].profile.*member = SizeCurve{{2 << 20, 128 << 20}, {300, 6000}};
        three[2].profile.*member = SizeCurve{{2 << 20, 128 << 20}, {200, 7000}};
        const HardwareProfile combined = combine_profiles(three, "fleet", "pinscope-cli combine-profiles ...");
        EXPECT_EQ((combined.*member).sizes_bytes, (std::vector<double>{2 << 20, 128 << 20}));
        EXPECT_EQ((combined.*member).values, (std::vector<double>{200, 7000}));
        for (NamedProfile& p : three) p.profile.*member = {};
        EXPECT_TRUE((combine_profiles(three, "fleet", "...").*member).empty());
    }
}

// A newer calibrate measures the pipeline's cudaHostAlloc at more sizes: the sizes only it measured
// are its own, those all measured the median of all, and nothing is refused.
TEST(ProfileCombination, APipelineCostMeasuredAtMoreSizesByOneMachineIsTheMedianAtEachSizeOfThoseThatMeasuredIt) {
    std::vector<NamedProfile> three{{"a.json", machine(1.0, 1.0)}, {"b.json", machine(1.0, 1.0)},
                                    {"newer.json", machine(1.0, 1.0)}};
    three[0].profile.pipeline_host_alloc_us = SizeCurve{{2 << 20, 128 << 20}, {100, 8000}};
    three[1].profile.pipeline_host_alloc_us = SizeCurve{{2 << 20, 128 << 20}, {300, 6000}};
    three[2].profile.pipeline_host_alloc_us = SizeCurve{{1 << 20, 2 << 20, 128 << 20}, {40, 200, 7000}};
    const HardwareProfile combined = combine_profiles(three, "fleet", "pinscope-cli combine-profiles ...");
    EXPECT_EQ(combined.pipeline_host_alloc_us.sizes_bytes, (std::vector<double>{1 << 20, 2 << 20, 128 << 20}));
    EXPECT_EQ(combined.pipeline_host_alloc_us.values, (std::vector<double>{40, 200, 7000}));
}

TEST(ProfileCombination, ProfilesMeasuredAtOtherSizesOrTooFewAreRefused) {
    HardwareProfile other = machine(1.0, 1.0);
    other.host_alloc_us = SizeCurve{{kMiB, 16.0 * kMiB}, {2, 4000}};
    try {
        combine_profiles({{"a.json", machine(1.0, 1.0)}, {"old.json", other}}, "fleet", "");
        FAIL() << "combined curves measured at other sizes";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "host.host_alloc_us");
        EXPECT_EQ(error.issue().value, "old.json");
        EXPECT_NE(error.issue().allowed.find("the same sizes as a.json"), std::string::npos) << error.issue().allowed;
    }
    EXPECT_THROW(combine_profiles({{"a.json", machine(1.0, 1.0)}}, "fleet", ""), ConfigError);
}

}  // namespace
}  // namespace pinscope
