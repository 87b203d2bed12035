// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/BandwidthCommand.h"

#include <unistd.h>

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/BandwidthTable.h"
#include "app/cli/ConfigFlags.h"
#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "app/common/InterruptSignals.h"
#include "engine/bandwidth/BandwidthCsv.h"
#include "engine/bandwidth/TimerSweep.h"
#include "engine/config/ConfigError.h"
#include "engine/export/ExportFormat.h"

namespace pinscope::cli {

namespace {

const std::string kSizeForms = "such as 4096, 4K, 4KiB, 16M or 1G";

std::size_t size_flag(const char* flag, const std::string& text) {
    const auto bytes = parse_size(text);
    if (!bytes) reject_flag(flag, text, "a size in bytes, " + kSizeForms);
    return *bytes;
}

template <typename T>
std::vector<T> list_flag(const char* flag, const std::string& text, std::optional<T> (*parse)(const std::string&),
                         const std::string& allowed) {
    std::vector<T> values;
    for (const std::string& item : split_list(text)) {
        const auto value = parse(item);
        if (!value) reject_flag(flag, item, "a comma list of " + allowed);
        values.push_back(*value);
    }
    return values;
}

}  // namespace

BandwidthCommand::BandwidthCommand(CLI::App& app)
    : command_(app.add_subcommand("bandwidth", "Measure host<->device copy bandwidth by size and kind of memory")) {
    command_->add_option("--device", device_, "auto (the GPU if there is one, else emulated), cuda, cuda:N, emulated or emulated:PROFILE")
        ->type_name("DEVICE")
        ->capture_default_str();
    command_->add_option("--min-size", min_size_, "smallest copy, " + kSizeForms)->type_name("SIZE")->capture_default_str();
    command_->add_option("--max-size", max_size_, "largest copy; sizes double from the smallest")
        ->type_name("SIZE")
        ->capture_default_str();
    command_->add_option("--direction", directions_, "h2d (host to device), d2h, or both")
        ->type_name("DIR,...")
        ->capture_default_str();
    command_->add_option("--memory", memories_, "host memory: pinned, pageable, wc (write-combined)")
        ->type_name("KIND,...")
        ->capture_default_str();
    command_->add_option("--samples", samples_, "timed samples per size, after one warm-up; the table shows the median")
        ->type_name("N")
        ->capture_default_str();
    command_->add_option("--csv", csv_path_, "write every point as CSV to this file")->type_name("FILE");
    command_->footer(
        "Copies are timed as nvbandwidth times them: CUDA events around them, pinned and write-combined "
        "copies queued behind a spin kernel (pageable ones, staged by the host inside the call, without it). "
        "For h2d pinned the same copies also run as a plain cudaMemcpyAsync loop, to show what tracing costs. "
        "The emulated device shows its profile's curves. Ctrl-C stops and prints what was measured.");
}

bool BandwidthCommand::selected() const { return command_->parsed(); }

int BandwidthCommand::execute() const {
    BandwidthOptions options;
    options.device = device_;
    options.min_bytes = size_flag("--min-size", min_size_);
    options.max_bytes = size_flag("--max-size", max_size_);
    options.directions = list_flag<CopyDirection>("--direction", directions_, parse_copy_direction, "h2d and d2h");
    options.memories =
        list_flag<HostMemoryKind>("--memory", memories_, parse_host_memory_kind, "pinned, pageable and wc");
    const auto samples = parse_unsigned(samples_);
    options.samples = samples && *samples <= static_cast<std::uint64_t>(kMaxBandwidthSamples) ? static_cast<int>(*samples) : 0;

    const auto issues = find_bandwidth_issues(options);
    if (!issues.empty()) {
        const ConfigIssue& issue = issues.front();
        if (issue.field == "min_bytes") reject_flag("--min-size", min_size_, issue.allowed);
        if (issue.field == "max_bytes")
            reject_flag("--max-size", max_size_, "a size from --min-size (" + min_size_ + ") to " +
                                                format_size(kMaxBandwidthBytes));
        if (issue.field == "directions") reject_flag("--direction", directions_, issue.allowed);
        if (issue.field == "memories") reject_flag("--memory", memories_, issue.allowed);
        reject_flag("--samples", samples_, issue.allowed);
    }
    if (!csv_path_.empty()) check_writable("--csv", csv_path_, OutputKind::File);

    const std::size_t total = options.directions.size() * options.memories.size() *
                              bandwidth_sizes(options.min_bytes, options.max_bytes).size();
    std::size_t done = 0;
    // On a terminal each point overwrites the last; into a file or pipe, one line each.
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    const app::InterruptSignals signals;
    BandwidthResult result;
    try {
        result = run_bandwidth_sweep(options, [&](double, const BandwidthPoint& point) {
            std::cerr << (terminal ? "\r\033[K[" : "[") << ++done << "/" << total << "] "
                      << to_string(point.direction) << ' ' << to_string(point.memory) << ' '
                      << format_size(point.bytes) << ": " << format_fixed(point.gb_per_s, 2) << " GB/s"
                      << (terminal ? "" : "\n") << std::flush;
            return !app::InterruptSignals::raised();
        });
    } catch (const ConfigError& error) {
        if (terminal && done > 0) std::cerr << '\n';
        // Every other option was checked above: this is the device name or its profile.
        reject_flag("--device", device_, error.issue().allowed);
    } catch (const std::exception&) {
        if (terminal && done > 0) std::cerr << '\n';
        throw;
    }
    if (terminal && done > 0) std::cerr << '\n';
    if (!result.note.empty()) std::cerr << kProgram << ": " << result.note << '\n';
    if (app::InterruptSignals::raised())
        std::cerr << kProgram << ": interrupted after " << result.points.size() << " of " << total << " points\n";

    std::cout << format_bandwidth_table(result) << std::flush;
    if (!csv_path_.empty()) {
        export_bandwidth_csv(csv_path_, result);
        std::cout << "wrote " << csv_path_ << '\n';
    }
    return app::InterruptSignals::raised() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
