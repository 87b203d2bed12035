// SPDX-License-Identifier: GPL-3.0-or-later
// A profile says how far to trust it: what validate found against a GPU, kept in the profile, and
// in words wherever the profile is offered.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/ProfileTrust.h"

namespace pinscope {
namespace {

ProfileValidation validation(bool same_call, std::size_t within_15) {
    ProfileValidation v;
    v.when = "2026-11-25 20:48 UTC";
    v.against = "NVIDIA H200";
    v.calibrated_in_the_same_call = same_call;
    v.seed = 18446744073709551615ull;  // the largest seed survives the file
    v.cells = 40;
    v.seconds = 3;
    v.repeat = 2;
    v.within_10 = 17;
    v.within_15 = within_15;
    v.pairs_agreeing = 10;
    v.pairs_counted = 14;
    return v;
}

TEST(ProfileTrust, AProfileNeverValidatedSaysHowToValidateIt) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    EXPECT_EQ(trust_summary(profile), "Not validated against a GPU: `pinscope-cli validate --profile h200-pcie5` on "
                                      "one says how far to trust it there.");
}

TEST(ProfileTrust, TheValidationOfTheProfileAsItIsIsShownBeforeOneCalibratedInTheSameCall) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    profile.trust.validations = {validation(false, 26), validation(true, 30)};
    EXPECT_EQ(trust_summary(profile),
              "Validated against NVIDIA H200 (2026-11-25 20:48 UTC, `validate --seed 18446744073709551615`, 40 cells, "
              "each run 2 times on the GPU, the profile as it is here): 26 of 40 cells within 15 %, 17 within 10 %; the "
              "faster of two settings named in 10 of 14 pairs.");
    const HardwareProfile back = profile_from_json(to_json(profile));
    EXPECT_EQ(back.trust, profile.trust);
}

ProfileValidation recorded_check(const char* file, std::size_t cells, std::size_t within_15, std::size_t within_10) {
    ProfileValidation v = validation(false, within_15);
    v.against = file;
    v.recorded = true;
    v.seed = 0;
    v.cells = cells;
    v.within_10 = within_10;
    v.pairs_agreeing = 9;
    v.pairs_counted = 11;
    return v;
}

// Checks against figures GPUs recorded (validate --against) are said together, after a
// validation of the profile as it is on a GPU and before one calibrated in the same call.
TEST(ProfileTrust, ChecksAgainstRecordedFiguresAreSaidTogether) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    profile.trust.validations = {validation(true, 30), recorded_check("a.csv", 30, 24, 22),
                                 recorded_check("b.csv", 40, 27, 21)};
    profile.trust.validations[2].when = "2026-11-27 04:10 UTC";
    EXPECT_EQ(trust_summary(profile),
              "Checked against the GPU figures of 2 earlier validate runs (`validate --against`, latest 2026-11-27 "
              "04:10 UTC, the profile as it is here): 51 of 70 cells within 15 %, 43 within 10 %; the faster of two "
              "settings named in 18 of 22 pairs; run by run 67.5 to 80.0 % within 15 %, 75 % or more in 1 of 2.");
    EXPECT_EQ(profile_from_json(to_json(profile)).trust, profile.trust);
    EXPECT_TRUE(to_json(profile)["trust"]["validated"][1]["recorded"].get<bool>());
    EXPECT_FALSE(to_json(profile)["trust"]["validated"][0].contains("recorded"));
    EXPECT_FALSE(to_json(profile)["trust"]["validated"][1].contains("seed")) << "a recorded file says no seed";
    EXPECT_TRUE(to_json(profile)["trust"]["validated"][0].contains("seed"));

    profile.trust.validations = {recorded_check("a.csv", 30, 24, 22)};
    EXPECT_NE(trust_summary(profile).find("Checked against the GPU figures recorded in a.csv (`validate --against`, "
                                          "2026-11-25 20:48 UTC, the profile as it is here): 24 of 30 cells"),
              std::string::npos)
        << trust_summary(profile);

    profile.trust.validations.push_back(validation(false, 26));
    EXPECT_EQ(trust_summary(profile).rfind("Validated against NVIDIA H200", 0), 0u) << trust_summary(profile);
}

// A validation of the profile as it is on a GPU does not hide the checks against recorded figures
// made since: the H200 profile's one live run (26 of 40) and eight recorded runs (195 of 311).
TEST(ProfileTrust, AValidationOnAGpuAndTheChecksAgainstRecordedFiguresAreBothSaid) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    profile.trust.validations = {validation(false, 26), recorded_check("a.csv", 30, 24, 22),
                                 recorded_check("b.csv", 40, 27, 21)};
    EXPECT_EQ(trust_summary(profile),
              "Validated against NVIDIA H200 (2026-11-25 20:48 UTC, `validate --seed 18446744073709551615`, 40 cells, "
              "each run 2 times on the GPU, the profile as it is here): 26 of 40 cells within 15 %, 17 within 10 %; the "
              "faster of two settings named in 10 of 14 pairs. Checked against the GPU figures of 2 earlier validate "
              "runs (`validate --against`, latest 2026-11-25 20:48 UTC, the profile as it is here): 51 of 70 cells "
              "within 15 %, 43 within 10 %; the faster of two settings named in 18 of 22 pairs; run by run 67.5 to "
              "80.0 % within 15 %, 75 % or more in 1 of 2.");
}

// Machines of one kind differ, and one machine from hour to hour: the checks together say how far
// their runs were apart, so that a good total cannot hide a machine the profile missed.
TEST(ProfileTrust, ChecksTogetherSayTheLeastAndTheMostOfARunWithin15Percent) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    profile.trust.validations = {recorded_check("a.csv", 40, 38, 30), recorded_check("b.csv", 40, 5, 3),
                                 recorded_check("c.csv", 20, 15, 10), recorded_check("d.csv", 40, 29, 20)};
    const std::string summary = trust_summary(profile);
    EXPECT_NE(summary.find("87 of 140 cells within 15 %"), std::string::npos) << summary;
    EXPECT_NE(summary.find("; run by run 12.5 to 95.0 % within 15 %, 75 % or more in 2 of 4."), std::string::npos)
        << summary;

    profile.trust.validations = {recorded_check("a.csv", 40, 38, 30)};
    EXPECT_EQ(trust_summary(profile).find("run by run"), std::string::npos) << "one run has no range";
}

TEST(ProfileTrust, AValidationSaysHowFastTheHostRanMeanwhileAgainstTheProfile) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust = {};
    ProfileValidation v = validation(false, 26);
    v.host_slowest = 0.6;
    v.host_fastest = 1.45;
    profile.trust.validations = {v};
    EXPECT_NE(trust_summary(profile).find("10 of 14 pairs; meanwhile the host ran at 0.60 to 1.45 times the profile's "
                                          "speed."),
              std::string::npos)
        << trust_summary(profile);
    EXPECT_EQ(profile_from_json(to_json(profile)).trust, profile.trust);

    nlohmann::json json = to_json(profile);
    json["trust"]["validated"][0]["host_slowest"] = 2.0;  // above the fastest
    try {
        profile_from_json(json);
        FAIL() << "the slowest above the fastest";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.trust.validated[0].host_slowest");
    }
    json["trust"]["validated"][0].erase("host_slowest");
    EXPECT_THROW(profile_from_json(json), ConfigError) << "one of the two without the other";
}

TEST(ProfileTrust, ABadValidationNamesTheField) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.trust.validations = {validation(false, 26)};
    nlohmann::json json = to_json(profile);
    json["trust"]["validated"][0]["within_15"] = 41;
    try {
        profile_from_json(json);
        FAIL() << "more cells within 15 % than cells";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.trust.validated[0].within_10");
    }
    json["trust"]["validated"][0]["within_15"] = 26;
    json["trust"]["validated"][0]["seed"] = -1;
    EXPECT_THROW(profile_from_json(json), ConfigError);
    json["trust"]["validated"][0]["seed"] = 1;
    json["trust"]["host_spread"] = 0.5;  // a ratio between machines is at least 1
    try {
        profile_from_json(json);
        FAIL() << "a spread below 1";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.trust.host_spread");
    }
    json["trust"]["host_spread"] = 1.9;
    json["trust"]["machines"] = 0;
    try {
        profile_from_json(json);
        FAIL() << "no machines";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.trust.machines");
    }
}

TEST(ProfileTrust, TheShippedCalibratedProfileSaysWhereItWasValidated) {
    const std::string summary = trust_summary(load_profile("h200-pcie5-calibrated"));
    EXPECT_NE(summary.find("The median of 8 machines of one kind"), std::string::npos) << summary;
    EXPECT_NE(summary.find("the profile as it is here"), std::string::npos) << summary;
}

}  // namespace
}  // namespace pinscope
