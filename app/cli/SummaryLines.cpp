// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SummaryLines.h"

#include "app/cli/TextTable.h"
#include "engine/advice/Advisor.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {
namespace {

// The row label, padded as the summary's rows are.
std::string label(const std::string& text) { return text + std::string(text.size() < 16 ? 16 - text.size() : 1, ' '); }

}  // namespace

std::string bottleneck_line(const RunSummary& summary) {
    return summary.bottleneck.evidence.empty() ? std::string() : label("bottleneck") + summary.bottleneck.evidence + '\n';
}

std::string advice_lines(const RunSummary& summary) {
    std::string lines;
    const std::string device = summary.advice.empty() ? std::string() : prediction_device(summary);
    for (const Advice& a : summary.advice)
        lines += label("try") + a.change.text() + ": " + format_fixed(a.predicted_batches_per_s, 0) + " batches/s predicted (" +
                 format_fixed(a.baseline_batches_per_s, 0) + " as run), on " + device + "; " + a.change.why + '\n';
    return lines;
}

std::string segment_lines(const RunSummary& summary) {
    const std::vector<RunSegment>& segments = summary.segments;
    if (segments.size() < 2) return {};
    const TimeNs origin = segments.front().begin;
    std::vector<std::vector<std::string>> rows{
        {"segment", "time (s)", "batches/s", "H2D GB/s", "GPU busy", "GPU starved", "pinned peak", "change"}};
    for (const RunSegment& s : segments) {
        const Metrics& m = s.metrics;
        rows.push_back({std::to_string(s.index), format_fixed(s.begin_s(origin), 1) + "-" + format_fixed(s.end_s(origin), 1),
                        format_fixed(m.batches_per_s, 1), format_fixed(m.h2d_gb_per_s, 2),
                        format_fixed(100 * m.gpu_busy, 1) + " %", format_fixed(100 * m.gpu_starved, 1) + " %",
                        format_fixed(static_cast<double>(s.pinned_peak_bytes) / static_cast<double>(kMiB), 1) + " MiB",
                        s.change.empty() ? std::string("as the run began") : printable(s.change, 2 * kEchoChars)});
    }
    std::string lines;
    for (const std::string& line : align_table(rows, {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right,
                                                      Align::Right, Align::Right, Align::Left}))
        lines += line + '\n';
    return lines;
}

}  // namespace pinscope::cli
