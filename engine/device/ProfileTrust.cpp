// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/device/ProfileTrust.h"

#include <algorithm>
#include <vector>

#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

std::string ratio_text(double spread) {
    return spread < 1.005 ? "within 1 %" : spread < 1.095 ? "within " + format_fixed((spread - 1) * 100, 0) + " %"
                                                          : "up to " + format_fixed(spread, 1) + "x apart";
}

std::string pairs_text(std::size_t agreeing, std::size_t counted) {
    return counted > 0 ? "; the faster of two settings named in " + std::to_string(agreeing) + " of " +
                             std::to_string(counted) + " pairs"
                       : "";
}

// How far the checks differ from one another (machines of one kind, and one machine from hour to
// hour): the least and the most of a run's cells within 15 %, and how many runs reached 75 %.
std::string by_run_text(const std::vector<const ProfileValidation*>& checks) {
    double least = 1, most = 0;
    std::size_t runs = 0, three_quarters = 0;
    for (const ProfileValidation* v : checks) {
        if (v->cells == 0) continue;
        const double share = static_cast<double>(v->within_15) / static_cast<double>(v->cells);
        least = std::min(least, share);
        most = std::max(most, share);
        ++runs;
        if (share >= 0.75) ++three_quarters;
    }
    if (runs < 2) return "";
    return "; run by run " + format_fixed(100 * least, 1) + " to " + format_fixed(100 * most, 1) +
           " % within 15 %, 75 % or more in " + std::to_string(three_quarters) + " of " + std::to_string(runs);
}

// Checks against GPU figures recorded earlier (validate --against), together.
std::string recorded_text(const std::vector<const ProfileValidation*>& checks) {
    std::size_t cells = 0, within_10 = 0, within_15 = 0, agreeing = 0, counted = 0;
    for (const ProfileValidation* v : checks) {
        cells += v->cells;
        within_10 += v->within_10;
        within_15 += v->within_15;
        agreeing += v->pairs_agreeing;
        counted += v->pairs_counted;
    }
    const bool one = checks.size() == 1;
    return "Checked against the GPU figures " + (one ? "recorded in " + checks.front()->against : "of " +
           std::to_string(checks.size()) + " earlier validate runs") + " (`validate --against`, " +
           (one ? checks.front()->when : "latest " + checks.back()->when) + ", the profile as it is here): " +
           std::to_string(within_15) + " of " + std::to_string(cells) + " cells within 15 %, " + std::to_string(within_10) +
           " within 10 %" + pairs_text(agreeing, counted) + by_run_text(checks) + ".";
}

std::string validation_text(const ProfileValidation& v) {
    std::string text = "Validated against " + v.against + " (" + v.when + ", `validate --seed " + std::to_string(v.seed) +
                       "`, " + std::to_string(v.cells) + " cells" +
                       (v.repeat > 1 ? ", each run " + std::to_string(v.repeat) + " times on the GPU" : "") + ", " +
                       (v.calibrated_in_the_same_call ? "calibrated on that machine in the same call"
                                                      : "the profile as it is here") +
                       "): " + std::to_string(v.within_15) + " of " + std::to_string(v.cells) + " cells within 15 %, " +
                       std::to_string(v.within_10) + " within 10 %";
    text += pairs_text(v.pairs_agreeing, v.pairs_counted);
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
    // The latest validation of the profile as it is on a GPU and every check against recorded
    // figures together, else the latest validation of all (calibrated in the same call).
    const ProfileValidation* shown = nullptr;
    std::vector<const ProfileValidation*> recorded;
    for (const ProfileValidation& v : trust.validations) {
        if (v.recorded) {
            recorded.push_back(&v);
            continue;
        }
        if (!v.calibrated_in_the_same_call || shown == nullptr || shown->calibrated_in_the_same_call) shown = &v;
    }
    if (shown != nullptr && !shown->calibrated_in_the_same_call)
        return text + validation_text(*shown) + (recorded.empty() ? "" : " " + recorded_text(recorded));
    if (!recorded.empty()) return text + recorded_text(recorded);
    if (shown == nullptr)
        return text + "Not validated against a GPU: `pinscope-cli validate --profile " + profile.name +
               "` on one says how far to trust it there.";
    return text + validation_text(*shown);
}

}  // namespace pinscope
