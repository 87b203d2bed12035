// SPDX-License-Identifier: GPL-3.0-or-later
// A hardware profile file for the emulated device. Bad input must come out as a ConfigError with a
// short printable message; a profile that loads must give finite, bounded model figures (they
// become integer nanoseconds) and survive being written and read again.
#include <cmath>

#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/HardwareProfile.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

#include <nlohmann/json.hpp>

using namespace pinscope;

namespace {

void check_curve(const SizeCurve& curve) {
    for (const double bytes : {0.0, 1.0, 4096.0, 38535168.0, 0x1p36}) {
        const double value = curve.scaled_at(bytes);
        fuzz::require(std::isfinite(value) && value >= 0, "a curve is finite and not negative");
        (void)duration_ns(value * 1e3);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::InputAsFile file;
    const std::string& path = file.write(data, size);
    HardwareProfile profile;
    try {
        profile = load_profile(path);
    } catch (const ConfigError& error) {
        fuzz::check_message(error.what());
        return 0;
    }
    for (const SizeCurve* curve : {&profile.h2d_pinned_gb_per_s, &profile.h2d_pageable_gb_per_s,
                                   &profile.d2h_pinned_gb_per_s, &profile.host_alloc_us, &profile.free_host_us,
                                   &profile.host_register_us, &profile.host_unregister_us, &profile.free_pageable_us,
                                   &profile.free_new_pages_us})
        check_curve(*curve);
    // A profile's texts are printable and at most 4096 characters (of up to 4 bytes), as the loader
    // makes them: a combined profile's source runs past a message's length.
    for (const std::string* text : {&profile.name, &profile.description, &profile.source, &profile.link_name})
        fuzz::check_message(*text, false, 4 * 4096);
    try {
        (void)profile_from_json(to_json(profile));
    } catch (const ConfigError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        fuzz::require(false, "a loaded profile, written out, loads again");
    }
    return 0;
}
