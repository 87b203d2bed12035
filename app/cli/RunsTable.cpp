// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RunsTable.h"

#include "app/cli/SweepTable.h"
#include "app/cli/TextTable.h"
#include "engine/sweep/SweepPlan.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope::cli {
namespace {

// "2026-11-25T10:15:30.123Z" as "2026-11-25 10:15:30".
std::string start_text(const std::string& utc) {
    std::string text = printable(utc.substr(0, 19), 19);
    if (text.size() > 10 && text[10] == 'T') text[10] = ' ';
    return text;
}

std::string device_text(const DeviceInfo& device) {
    if (device.kind == DeviceKind::Emulated) return printable("emulated " + device.profile, 40);
    return printable(device.name, 40);
}

}  // namespace

std::string format_runs_table(const std::vector<RecordedRunInfo>& runs) {
    std::vector<std::vector<std::string>> rows{
        {"run", "started (UTC)", "device", "host", "configuration", "batches/s", "length", "state"}};
    for (const RecordedRunInfo& run : runs) {
        rows.push_back({std::to_string(run.id), start_text(run.started_utc), device_text(run.device),
                        printable(run.host_name, 30), describe_sweep_point(run.config),
                        run.batches_per_s ? format_batches_per_s(*run.batches_per_s) : "-",
                        format_fixed(run.length_s, 2) + " s", run.finished ? "finished" : "unfinished"});
    }
    std::string text;
    for (const std::string& line : align_table(rows, {Align::Right, Align::Left, Align::Left, Align::Left, Align::Left,
                                                      Align::Right, Align::Right, Align::Left}))
        text += line + '\n';
    return text;
}

}  // namespace pinscope::cli
