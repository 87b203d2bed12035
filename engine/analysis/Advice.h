// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A suggested configuration change and the batches/s the emulated device predicts for it
// (engine/advice runs the predictions; summaries and frames carry the result).
#include <string>

namespace pinscope {

// One configuration field set to one value, and why it may help.
struct ConfigChange {
    std::string key;        // the field's JSON key: "pin_mode"
    std::string value;      // its JSON value as JSON text: "\"worker\"", "8", "true"
    std::string why;        // "the workers collate straight into pinned blocks: no pin thread"
    std::string text() const;  // "pin_mode worker", "pin_memory on", "pinned_budget_bytes 192 MiB"
    friend bool operator==(const ConfigChange&, const ConfigChange&) = default;
};

struct Advice {
    ConfigChange change;
    double predicted_batches_per_s = 0;
    double baseline_batches_per_s = 0;  // the run's own configuration, predicted the same way
    friend bool operator==(const Advice&, const Advice&) = default;
    double gain() const { return baseline_batches_per_s > 0 ? predicted_batches_per_s / baseline_batches_per_s : 0; }
};

}  // namespace pinscope
