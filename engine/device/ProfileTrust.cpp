// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/ProfileTrust.h"

#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

std::string ratio_text(double spread) {
    return spread < 1.005 ? "within 1 %" : spread < 1.095 ? "within " + format_fixed((spread - 1) * 100, 0) + " %"
                                                          : "up to " + format_fixed(spread, 1) + "x apart";
}

std::string validation_text(const ProfileValidation& v) {
    std::string text = "Validated against " + v.against + " (" + v.when + ", `validate --seed " + std::to_string(v.seed) +
                       "`, " + std::to_string(v.cells) + " cells" +
                       (v.repeat > 1 ? ", each run " + std::to_string(v.repeat) + " times on the GPU" : "") + ", " +
                       (v.calibrated_in_the_same_call ? "calibrated on that machine in the same call"
                                                      : "the profile as it is here") +
                       "): " + std::to_string(v.within_15) + " of " + std::to_string(v.cells) + " cells within 15 %, " +
                       std::to_string(v.within_10) + " within 10 %";
    if (v.pairs_counted > 0)
        text += "; the faster of two settings named in " + std::to_string(v.pairs_agreeing) + " of " +
                std::to_string(v.pairs_counted) + " pairs";
    if (v.host_fastest > 0)
        text += "; meanwhile the host ran at " + format_fixed(v.host_slowest, 2) + " to " +
                format_fixed(v.host_fastest, 2) + " times the profile's speed";
    return text + ".";
}

}  // namespace

std::string trust_summary(const HardwareProfile& profile) {
    const ProfileTrust& trust = profile.trust;
    std::string text;
    if (trust.machines > 1) {
        text = "The median of " + std::to_string(trust.machines) + " machines of one kind";
        if (trust.copy_spread > 0 || trust.host_spread > 0) {
            text += " (";
            if (trust.copy_spread > 0) text += "their pinned copies " + ratio_text(trust.copy_spread);
            if (trust.copy_spread > 0 && trust.host_spread > 0) text += ", ";
            if (trust.host_spread > 0) text += "their host figures " + ratio_text(trust.host_spread);
            text += ")";
        }
        text += ". ";
    }
    // The latest validation of the profile as it is, else the latest of all.
    const ProfileValidation* shown = nullptr;
    for (const ProfileValidation& v : trust.validations)
        if (!v.calibrated_in_the_same_call || shown == nullptr || shown->calibrated_in_the_same_call) shown = &v;
    if (shown == nullptr)
        return text + "Not validated against a GPU: `pinscope-cli validate --profile " + profile.name +
               "` on one says how far to trust it there.";
    return text + validation_text(*shown);
}

}  // namespace pinscope
