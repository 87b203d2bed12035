// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SummaryLines.h"

#include "engine/advice/Advisor.h"
#include "engine/text/TextFormat.h"

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

}  // namespace pinscope::cli
