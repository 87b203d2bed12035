// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one table of Metrics' figures: the key summary.json and a recording's columns use, the
// label and unit the CLI and comparisons print. summary.json (whole run and each segment), the
// recording's runs and segments tables, summary.json read back and compare all go through it,
// so a new figure is added here once.
#include <span>

#include "engine/metrics/Metrics.h"

namespace pinscope {

enum class MetricKind {
    Count,    // an integer: batches, samples
    Seconds,
    Rate,     // per second
    Bytes,
    Share,    // 0..1 of the wall time (or of the copies); summary.json clamps it into 0..1
};

struct MetricField {
    const char* key;    // summary.json key and recording column: "batches_per_s"
    const char* label;  // "batches/s"
    const char* unit;   // as printed: "", "GB/s", "%", "s", "GiB"
    int decimals;       // as printed
    MetricKind kind;
    double (*get)(const Metrics&);
    void (*set)(Metrics&, double);
    // As printed: shares in percent, bytes in GiB.
    double shown(const Metrics& metrics) const;
};

std::span<const MetricField> metric_fields();

}  // namespace pinscope
