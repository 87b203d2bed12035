// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/HostReading.h"

#include <algorithm>

#include "engine/host/HostMeasurement.h"
#include "engine/metrics/Median.h"

namespace pinscope {
namespace {
constexpr int kSamples = 5;
constexpr double HostReading::*kFigures[] = {&HostReading::fill_gb_per_s, &HostReading::first_touch_gb_per_s,
                                             &HostReading::free_us, &HostReading::pin_gb_per_s};
}  // namespace

HostReading read_host() {
    HostReading reading;
    reading.fill_gb_per_s = measure_fill_gb_per_s(kCalibrationBatchBytes, kSamples);
    reading.first_touch_gb_per_s = measure_first_touch_gb_per_s(kCalibrationBatchBytes, kSamples);
    reading.free_us = measure_handed_over_free_us(kHostReadingFreeBytes, kSamples);
    reading.pin_gb_per_s = measure_pin_copy_gb_per_s(kCalibrationBatchBytes, kSamples);
    return reading;
}

HostReading host_reading_of(const HardwareProfile& profile) {
    HostReading reading;
    reading.fill_gb_per_s = profile.fill_gb_per_s;
    reading.first_touch_gb_per_s = profile.first_touch_gb_per_s;
    reading.pin_gb_per_s = profile.memcpy_to_pinned_gb_per_s;
    if (!profile.free_new_pages_us.empty())
        reading.free_us = profile.free_new_pages_us.scaled_at(static_cast<double>(kHostReadingFreeBytes));
    return reading;
}

std::optional<HostRange> host_range(const std::vector<HostReading>& readings) {
    if (readings.empty()) return std::nullopt;
    HostRange range;
    for (auto field : kFigures) {
        for (const HostReading& r : readings) {
            if (!(r.*field > 0)) continue;
            range.lowest.*field = range.lowest.*field > 0 ? std::min(range.lowest.*field, r.*field) : r.*field;
            range.highest.*field = std::max(range.highest.*field, r.*field);
        }
    }
    return range;
}

std::optional<HostSpeed> host_speed_against(const std::vector<HostReading>& readings, const HostReading& profile) {
    std::vector<double> ratios;
    for (const HostReading& r : readings)
        for (auto field : kFigures) {
            if (!(profile.*field > 0) || !(r.*field > 0)) continue;
            // A free's cost inverted: above 1 is faster for every figure.
            ratios.push_back(field == &HostReading::free_us ? profile.*field / r.*field : r.*field / profile.*field);
        }
    if (ratios.empty()) return std::nullopt;
    const auto [slowest, fastest] = std::minmax_element(ratios.begin(), ratios.end());
    return HostSpeed{*slowest, *fastest};
}

std::optional<HostReading> median_reading(const std::vector<HostReading>& readings) {
    if (readings.empty()) return std::nullopt;
    HostReading middle;
    for (auto field : kFigures) {
        std::vector<double> values;
        for (const HostReading& r : readings)
            if (r.*field > 0) values.push_back(r.*field);
        if (!values.empty()) middle.*field = median(std::move(values));
    }
    return middle;
}

namespace {

// The pool runs' worker rates are the host's, measured in a running pipeline: they move with it as
// its idle rates do. Left alone, a worker would fill and collate at the profile's rates whatever the
// host was read at: validate's second and third reports left a worker's load and collate as the
// profile has them from 2026-11-28, when the pool run's rates came in, to 2026-12-03.
void scale_workers_filling(HardwareProfile& profile, double factor) {
    for (SizeCurve* curve : {&profile.pipeline_worker_fill_gb_per_s, &profile.pipeline_alloc_workers_fill_gb_per_s})
        for (double& rate : curve->values) rate *= factor;
}

void scale_workers_collating(HardwareProfile& profile, double factor) {
    for (SizeCurve* curve : {&profile.pipeline_worker_collate_gb_per_s, &profile.pipeline_alloc_workers_collate_gb_per_s})
        for (double& rate : curve->values) rate *= factor;
}

// The rate the model runs at where the profile states none: its memcpy.
double stated(const HardwareProfile& profile, double rate) { return rate > 0 ? rate : profile.memcpy_gb_per_s; }

}  // namespace

HardwareProfile with_host_rates(HardwareProfile profile, const HostReading& read) {
    if (read.fill_gb_per_s > 0) {
        scale_workers_filling(profile, read.fill_gb_per_s / stated(profile, profile.fill_gb_per_s));
        profile.fill_gb_per_s = read.fill_gb_per_s;
    }
    if (read.first_touch_gb_per_s > 0) {
        scale_workers_collating(profile, read.first_touch_gb_per_s / stated(profile, profile.first_touch_gb_per_s));
        profile.first_touch_gb_per_s = read.first_touch_gb_per_s;
    }
    if (read.pin_gb_per_s > 0) profile.memcpy_to_pinned_gb_per_s = read.pin_gb_per_s;
    return profile;
}

HardwareProfile with_host_speed(HardwareProfile profile, double speed) {
    profile.fill_gb_per_s = stated(profile, profile.fill_gb_per_s) * speed;
    profile.first_touch_gb_per_s = stated(profile, profile.first_touch_gb_per_s) * speed;
    scale_workers_filling(profile, speed);
    scale_workers_collating(profile, speed);
    return profile;
}

}  // namespace pinscope
