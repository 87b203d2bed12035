// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CalibrateCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "engine/calibrate/Calibration.h"
#include "engine/calibrate/CalibrationSteps.h"
#include "engine/config/ConfigError.h"
#include "engine/device/factory/CalibrationProbeFactory.h"
#include "engine/export/ExportFormat.h"

namespace pinscope::cli {

namespace {

constexpr double kQuoteBytes = 16.0 * 1024 * 1024;  // the size the summary quotes copies at

std::string summary(const HardwareProfile& p) {
    const auto rate = [](double gb_per_s) { return format_fixed(gb_per_s, 1) + " GB/s"; };
    return "profile " + p.name + ": " + p.description + "\n" +
           "  link " + p.link_name + " (" + rate(p.link_gb_per_s) + " in theory)\n" +
           "  at 16 MiB: H2D pinned " + rate(p.h2d_pinned_gb_per_s.at(kQuoteBytes)) + ", pageable " +
           rate(p.h2d_pageable_gb_per_s.at(kQuoteBytes)) + ", write-combined " +
           rate(p.h2d_write_combined_gb_per_s.at(kQuoteBytes)) + "; D2H pinned " +
           rate(p.d2h_pinned_gb_per_s.at(kQuoteBytes)) + ", pageable " + rate(p.d2h_pageable_gb_per_s.at(kQuoteBytes)) +
           "\n" + "  pageable copies hold the host for " + format_fixed(100 * p.pageable_hold_fraction, 0) +
           "% of the copy and " + (p.pageable_overlaps_compute ? "overlap" : "do not overlap") + " a running kernel\n" +
           "  " + std::to_string(p.host_cores) + " host cores, memcpy " + rate(p.memcpy_gb_per_s) + " (into pinned " +
           rate(p.memcpy_to_pinned_gb_per_s) + "), cudaHostAlloc of " + format_size_rounded(kCalibrationBatchBytes) + " " +
           format_fixed(p.host_alloc_us.at(kCalibrationBatchBytes) / 1000, 1) + " ms\n";
}

bool needs_quotes(const std::string& arg) {
    if (arg.empty()) return true;
    for (const char c : arg)
        if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("-_./:=,+@%").find(c) == std::string_view::npos)
            return true;
    return false;
}

}  // namespace

bool valid_profile_name(const std::string& name) {
    if (name.empty() || name.front() == '.' || name.front() == '-') return false;
    for (const char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
    return true;
}

std::string shell_command_line(int argc, const char* const* argv) {
    std::string line = kProgram;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (needs_quotes(arg)) {
            std::string quoted = "'";
            for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            arg = quoted + "'";
        }
        line += " " + arg;
    }
    return line;
}

CalibrateCommand::CalibrateCommand(CLI::App& app, std::string command_line)
    : command_(app.add_subcommand("calibrate", "Measure this GPU's hardware profile for the emulated device")),
      command_line_(std::move(command_line)) {
    command_->add_option("--device", device_, "the GPU to measure: cuda or cuda:N")
        ->type_name("DEVICE")
        ->capture_default_str();
    command_->add_option("--name", name_, "the profile's name (default: from the GPU and its link, e.g. h100-pcie5)")
        ->type_name("NAME");
    command_->add_option("--out", out_path_, "where to write the profile JSON (default: NAME.json here)")
        ->type_name("FILE");
    command_->add_flag("--quick", quick_, "copy sizes every 4x instead of 2x and 3 samples instead of 5");
    command_->footer(
        "Measures copy bandwidth by size (H2D and D2H; pinned, pageable, write-combined), how pageable copies hold "
        "the host and whether they overlap kernels, the cost of copy calls, page locking and freeing, the host's "
        "cores and memcpy rates, and how host work slows while other threads stream through memory. Use the result with --device emulated:FILE, or put it in resources/profiles.");
}

bool CalibrateCommand::selected() const { return command_->parsed(); }

int CalibrateCommand::execute() const {
    if (!name_.empty() && !valid_profile_name(name_))
        reject_flag("--name", name_, "letters, digits, '-', '_' and '.', not starting with '.' or '-'");
    if (!out_path_.empty()) check_writable("--out", out_path_, OutputKind::File);

    std::unique_ptr<CalibrationProbe> probe;
    try {
        probe = open_calibration_probe(device_);
    } catch (const ConfigError&) {
        reject_flag("--device", device_, "cuda or cuda:N");
    }
    CalibrationOptions options;
    options.name = name_;  // empty: from the GPU and the link measured
    options.command = command_line_;
    options.pipeline_device = device_;  // what the pipeline's frees and page-locking calls cost in it
    options.quick = quick_;
    // Without --out the file is NAME.json here, its name known once measured: check the folder now.
    if (out_path_.empty()) check_writable("--out", (name_.empty() ? "profile" : name_) + ".json", OutputKind::File);

    std::cerr << "calibrating " << probe->info().name << " (" << kCalibrationTakes << "; --quick is faster)\n";
    const HardwareProfile profile = calibrate_profile(*probe, options, print_calibration_steps(std::cerr));
    const std::string out_path = out_path_.empty() ? profile.name + ".json" : out_path_;
    export_profile(out_path, profile);
    std::cout << summary(profile) << "wrote " << out_path << '\n';
    return kExitOk;
}

}  // namespace pinscope::cli
