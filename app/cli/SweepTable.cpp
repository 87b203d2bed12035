// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SweepTable.h"

#include <algorithm>
#include <cstdio>

#include "app/cli/TextTable.h"
#include "engine/sweep/SweepPlan.h"
#include "engine/text/Units.h"

namespace pinscope::cli {

namespace {


std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string percent(double fraction) { return fixed(100.0 * std::clamp(fraction, 0.0, 1.0), 1); }

std::vector<std::string> cells(const SweepRow& row) {
    const auto prefetch = applied_prefetch(row.config);
    const auto pin_mode = applied_pin_mode(row.config);
    const Metrics& m = row.summary.metrics;
    return {std::to_string(row.config.num_workers),
            prefetch ? std::to_string(*prefetch) : "-",
            row.config.pin_memory ? "on" : "off",
            pin_mode ? to_string(*pin_mode) : "-",
            describe_bindings(row.config),
            to_string(row.config.membind),
            to_string(row.config.copy_stream),
            format_batches_per_s(m.batches_per_s),
            fixed(m.samples_per_s, 1),
            fixed(m.h2d_gb_per_s, 2),
            percent(m.gpu_busy),
            percent(m.copy_hidden),
            percent(m.gpu_starved),
            percent(m.consumer_wait),
            fixed(static_cast<double>(row.summary.pinned.reserved_bytes.peak) / static_cast<double>(kMiB), 1)};
}

}  // namespace

std::string format_batches_per_s(double value) { return fixed(value, 1); }

std::string format_sweep_table(const std::vector<SweepRow>& rows) {
    std::vector<std::vector<std::string>> table{{"workers", "prefetch", "pin_memory", "pin_mode", "bind", "membind",
                                                 "copy_stream",
                                                 "batches/s",
                                                 "samples/s", "H2D GB/s", "GPU busy %", "copy hidden %", "GPU starved %",
                                                 "consumer wait %",
                                                 "pinned peak MiB"}};
    for (const SweepRow& row : rows) table.push_back(cells(row));

    const std::vector<std::string> lines =
        align_table(table, {Align::Right, Align::Right, Align::Left, Align::Left, Align::Left, Align::Left, Align::Left});

    const auto best = std::max_element(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) {
        return a.summary.metrics.batches_per_s < b.summary.metrics.batches_per_s;
    });
    std::string text;
    for (std::size_t r = 0; r < lines.size(); ++r) {
        text += lines[r];
        if (r > 0 && rows.begin() + static_cast<std::ptrdiff_t>(r - 1) == best) text += "  <- best";
        text += '\n';
    }
    return text;
}

}  // namespace pinscope::cli
