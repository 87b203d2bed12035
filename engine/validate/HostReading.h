// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The host figures that move while a machine is shared, read the way calibrate measures them: on
// the H100 cloud VMs filling read 2.3 GB/s in a VM's first minute and 4.6 to 6.0 GB/s after, and
// freeing a worker's 16 MiB batch 1.3 ms, then 3 ms five minutes later, while a profile holds one
// moment's. validate reads them before each cell, to say how far the host moved from the profile
// the emulated device runs: errors within that drift are the host's as much as the model's.
#include <cstddef>
#include <optional>
#include <vector>

#include "engine/device/HardwareProfile.h"
#include "engine/text/Units.h"

namespace pinscope {

inline constexpr std::size_t kHostReadingFreeBytes = 16 * kMiB;

struct HostReading {
    double fill_gb_per_s = 0;         // a thread filling samples (the profile's fill_gb_per_s)
    double first_touch_gb_per_s = 0;  // collating into a batch's new pages (first_touch_gb_per_s)
    double free_us = 0;               // freeing a worker's batch of kHostReadingFreeBytes; 0: not stated
    double pin_gb_per_s = 0;          // a batch just collated into resident memory (memcpy_to_pinned_gb_per_s); 0: not read
    bool operator==(const HostReading&) const = default;
};

// Measured here and now, in under a second: each figure the median of 5 samples, as calibrate
// takes them (kCalibrationBatchBytes for filling and collating).
HostReading read_host();

// The same figures as `profile` states them (free_us 0 where it states no free of a worker's batch).
HostReading host_reading_of(const HardwareProfile& profile);

// The lowest and highest of each figure over readings (0 for a figure none of them read), nullopt
// when there are none.
struct HostRange {
    HostReading lowest;
    HostReading highest;
};
std::optional<HostRange> host_range(const std::vector<HostReading>& readings);

// How fast the host ran in `readings` against `profile`'s figures: each figure's rate over the
// profile's (a free's cost inverted, so that above 1 is faster everywhere), the lowest and the
// highest over every reading and figure the profile states; nullopt without readings or figures.
struct HostSpeed {
    double slowest = 0;
    double fastest = 0;
};
std::optional<HostSpeed> host_speed_against(const std::vector<HostReading>& readings, const HostReading& profile);

// Each figure's median over `readings` (those of a figure read as 0 left out); nullopt without readings.
std::optional<HostReading> median_reading(const std::vector<HostReading>& readings);

// `profile` with its host rates as `read`: filling samples, collating into new pages and the pin
// copy, the rates of a batch's load, collate and pin, where `read` states them. What validate runs
// the cells again on, to tell the host's state at the time from the model: in five runs on three VMs
// (2026-11-27) the load and collate of each run's cells took 1.09 to 1.25 times the model's, where
// the readings before them had the host at 0.80 to 0.96 of the profile; with those two rates as
// read, cells pinned by pin_mode pool still ran a median 10 % fast, and 5 % with the pin copy slowed
// as filling had. The free is left as the profile states it: its readings spread too widely to
// stand for a run (0.5 to 4.3 ms for one 16 MiB batch on one VM). The workers' rates of calibrate's
// pipeline runs move by the same factors as filling and collating.
HardwareProfile with_host_rates(HardwareProfile profile, const HostReading& read);

// `profile` with a batch's load and collate `speed` times as fast: its filling and collating rates
// (memcpy_gb_per_s where it states none) and its workers' rates in calibrate's pipeline runs times
// `speed`. What validate runs each cell on again to take the host as it ran in that cell out of the
// error.
HardwareProfile with_host_speed(HardwareProfile profile, double speed);

}  // namespace pinscope
