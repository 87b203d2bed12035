// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The host's idle rates at one moment, as calibrate reads them: filling samples, collating into new
// pages, pinning a batch just collated. A VM's host moves by 10 to 20 % from minute to minute
// (validate's readings before each cell on one H100 VM, 2026-11-28: filling at 3.6 to 5.8 GB/s
// within one run, and the run's medians 4.8 to 5.2 against the 5.3 its calibration had read a few
// minutes before), so calibrate reads it at moments spread over its whole run and keeps the median.
// (validate's HostReading reads the same rates before each cell, the pin into resident pageable
// memory, with no probe.)
#include <string>
#include <vector>

#include "engine/device/CalibrationProbe.h"

namespace pinscope {

struct IdleHostReading {
    double fill_gb_per_s = 0;
    double first_touch_gb_per_s = 0;
    double pin_gb_per_s = 0;  // a batch just collated into the probe's page-locked memory
    std::string moment;       // where in the calibration it was read: "after the copy sweep"
};

// One reading now, nothing else running (each figure the median of five samples).
IdleHostReading read_idle_host(CalibrationProbe& probe, std::string moment);

// The median of the readings' `rate`; 0 for none.
double median_rate(const std::vector<IdleHostReading>& readings, double IdleHostReading::*rate);

// Sentences for the profile's source: how many readings, each rate's range over them, and every
// reading with its moment, so that a rate that dips after one step of the calibration shows.
std::string idle_readings_text(const std::vector<IdleHostReading>& readings);

}  // namespace pinscope
