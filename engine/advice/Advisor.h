// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What to try next: configuration changes chosen from a run's bottleneck, each with the batches/s
// the emulated device predicts for it from a short run of its own (a prediction, not a measurement
// of this machine).
#include <functional>
#include <string>
#include <vector>

#include "engine/analysis/Advice.h"
#include "engine/runner/RunRecord.h"

namespace pinscope {

struct AdviceOptions {
    double seconds = 2.0;   // each prediction run's length
    double window_s = 1.0;  // its throughput is taken over the last this many seconds (the pool warmed up)
    double min_gain = 1.05; // suggestions predicted to gain less are left out
    // Checked every 10 ms while a prediction runs (which then stops at once) and between them; may
    // be empty. A cancelled advise() returns what it had.
    std::function<bool()> cancelled;
};

// The changes worth trying for the run's (whole-run) bottleneck, most promising first; each
// config it makes is valid. Pure: runs nothing.
std::vector<ConfigChange> candidate_changes(const RunSummary& summary);
// `config` with `change` applied.
LoaderConfig apply_change(const LoaderConfig& config, const ConfigChange& change);
// The emulated device that stands for the run's: its own profile, for a CUDA run the built-in
// profile of that GPU (a calibrated one first), else the default. "emulated:h200-pcie5".
std::string prediction_device(const RunSummary& summary);
// Runs the baseline and each candidate for a few seconds on that device with the host modelled,
// one after another, and returns the candidates predicted to gain at least min_gain, best first.
// Throws what Runner::start throws for the baseline.
std::vector<Advice> advise(const RunSummary& summary, const AdviceOptions& options = {});
// The prediction of one configuration: steady-state batches/s over the last window_s; 0 when cancelled.
double predict_batches_per_s(const LoaderConfig& config, const std::string& device, const AdviceOptions& options);

}  // namespace pinscope
