// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/IdleHostReading.h"

#include <algorithm>
#include <utility>

#include "engine/host/HostMeasurement.h"
#include "engine/metrics/Median.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {
constexpr int kSamples = 5;

std::string each_reading(const std::vector<IdleHostReading>& readings) {
    std::string text;
    for (const IdleHostReading& r : readings) {
        if (!text.empty()) text += "; ";
        text += r.moment + " " + format_fixed(r.fill_gb_per_s, 2) + ", " + format_fixed(r.first_touch_gb_per_s, 2) +
                ", " + format_fixed(r.pin_gb_per_s, 2);
    }
    return text;
}
}  // namespace

IdleHostReading read_idle_host(CalibrationProbe& probe, std::string moment) {
    IdleHostReading reading;
    reading.moment = std::move(moment);
    reading.fill_gb_per_s = measure_fill_gb_per_s(kCalibrationBatchBytes, kSamples);
    reading.first_touch_gb_per_s = measure_first_touch_gb_per_s(kCalibrationBatchBytes, kSamples);
    reading.pin_gb_per_s = probe.memcpy_to_pinned_gb_per_s(kCalibrationBatchBytes, BatchState::JustCollated);
    return reading;
}

double median_rate(const std::vector<IdleHostReading>& readings, double IdleHostReading::*rate) {
    if (readings.empty()) return 0;
    std::vector<double> values;
    for (const IdleHostReading& r : readings) values.push_back(r.*rate);
    return median(std::move(values));
}

std::string idle_readings_text(const std::vector<IdleHostReading>& readings) {
    if (readings.empty()) return "";
    const auto range = [&](double IdleHostReading::*rate) {
        const auto [low, high] = std::minmax_element(
            readings.begin(), readings.end(),
            [rate](const IdleHostReading& a, const IdleHostReading& b) { return a.*rate < b.*rate; });
        return format_fixed((*low).*rate, 2) + " to " + format_fixed((*high).*rate, 2) + " GB/s";
    };
    return "The idle rates (filling samples, collating into new pages, pinning a batch just collated) are the "
           "median of " + std::to_string(readings.size()) +
           " readings spread over the calibration (filling " +
           range(&IdleHostReading::fill_gb_per_s) + ", collating " + range(&IdleHostReading::first_touch_gb_per_s) +
           ", pinning " + range(&IdleHostReading::pin_gb_per_s) + "). In the order read (filling, collating, pinning, GB/s): " +
           each_reading(readings) + ". ";
}

}  // namespace pinscope
