// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SweepCommand.h"

#include <cmath>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "app/cli/RunDriver.h"
#include "app/cli/SweepTable.h"
#include "engine/config/ConfigError.h"
#include "engine/sweep/SweepCsv.h"
#include "engine/sweep/SweepPlan.h"

namespace pinscope::cli {

SweepCommand::SweepCommand(CLI::App& app)
    : command_(app.add_subcommand("sweep", "Run every combination of the swept flags and compare them")),
      flags_(*command_, ConfigFlags::Mode::Sweep),
      record_(*command_) {
    command_->add_option("--csv", csv_path_, "write the table as CSV to this file")->type_name("FILE");
    command_->add_option("--warmup", warmup_s_,
                         "leave the first S seconds of each run out of its figures (steady state); needs --seconds")
        ->type_name("S");
    command_->add_option("--trace-spans", trace_spans_,
                         "on: trace every stage (default); off: compute spans only and untimed copies, to measure "
                         "what tracing costs")
        ->type_name("on|off")
        ->check(CLI::IsMember({"on", "off"}));
    command_->footer(
        "--workers, --prefetch, --pin-memory, --pin-mode, --copy-stream, --bind and --membind take comma lists, such "
        "as --workers 0,4,8 --pin-memory off,on --copy-stream side,compute (a CPU list stays one item: --bind "
        "local,0-3,8 is local and 0-3,8). As in PyTorch, prefetch applies only with workers and pin_mode only with "
        "pin_memory on, so such combinations run once. Each combination runs for the run length given. Ctrl-C stops "
        "the sweep and prints (and writes) what has run, then it exits 130 (143 for SIGTERM).");
}

bool SweepCommand::selected() const { return command_->parsed(); }

int SweepCommand::execute() const {
    const std::vector<LoaderConfig> configs = expand_sweep(flags_.config(), flags_.sweep_axes());
    const std::size_t total = configs.size();
    // Every combination is checked before the first one runs.
    for (std::size_t i = 0; i < total; ++i)
        flags_.validate(configs[i], "combination " + std::to_string(i + 1) + " of " + std::to_string(total) + " (" +
                                        describe_sweep_point(configs[i]) + "): ");

    if (!csv_path_.empty()) check_writable("--csv", csv_path_, OutputKind::File);
    Measurement measurement;
    measurement.trace_all_spans = trace_spans_ == "on";
    if (!std::isfinite(warmup_s_) || warmup_s_ < 0) {
        reject_flag("--warmup", std::to_string(warmup_s_), "seconds from 0 up");
    } else if (warmup_s_ > 0) {
        const std::optional<double> seconds = configs.front().seconds;
        if (!seconds || warmup_s_ >= *seconds)
            reject_flag("--warmup", std::to_string(warmup_s_),
                        "a warm-up shorter than the run length, which it needs in --seconds");
        measurement.window_s = *seconds - warmup_s_;
    }

    // Every combination is a run of its own in the recording.
    const std::shared_ptr<RecordingWriter> recording = record_.open();
    RunDriver driver(recording, measurement);
    std::vector<SweepRow> rows;
    std::vector<std::int64_t> recorded;
    for (std::size_t i = 0; i < total && !RunDriver::interrupted(); ++i) {
        const std::string point = describe_sweep_point(configs[i]);
        std::cerr << "[" << i + 1 << "/" << total << "] " << point << " ... " << std::flush;
        bool interrupted = false;
        try {
            interrupted = driver.run(configs[i]);
        } catch (const ConfigError& error) {
            std::cerr << '\n';
            throw UsageError(flags_.describe(error.issue()));
        } catch (const std::exception&) {
            std::cerr << '\n';
            throw;
        }
        RunSummary summary = driver.runner().summary();
        if (recording) {
            if (!RecordFlag::finish(*recording, summary)) return kExitFailure;
            recorded.push_back(recording->run_id());
        }
        if (warmup_s_ > 0) summary.metrics = driver.runner().window_metrics();
        if (!summary.error.empty()) {
            std::cerr << "failed\n" << kProgram << ": " << point << ": run failed: " << summary.error << '\n';
            return kExitFailure;
        }
        if (interrupted) {
            std::cerr << "interrupted\n";
            break;
        }
        std::cerr << format_batches_per_s(summary.metrics.batches_per_s) << " batches/s\n";
        rows.push_back(SweepRow{configs[i], summary});
    }
    if (RunDriver::interrupted())
        std::cerr << kProgram << ": interrupted after " << rows.size() << " of " << total << " combinations\n";

    std::cout << format_sweep_table(rows) << std::flush;
    if (!recorded.empty())
        std::cout << (recorded.size() == 1 ? "recorded run " + std::to_string(recorded.front())
                                           : "recorded runs " + std::to_string(recorded.front()) + " to " +
                                                 std::to_string(recorded.back()))
                  << " in " << recording->path() << '\n';
    if (!csv_path_.empty()) {
        export_sweep_csv(csv_path_, rows);
        std::cout << "wrote " << csv_path_ << '\n';
    }
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
