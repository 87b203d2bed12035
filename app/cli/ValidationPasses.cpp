// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ValidationPasses.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "app/cli/SweepTable.h"
#include "app/cli/ValidateTable.h"
#include "engine/calibrate/Calibration.h"
#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/metrics/Median.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"
#include "engine/validate/HostReading.h"
#include "engine/validate/ValidationCsv.h"

namespace pinscope::cli {
namespace {

// `cell` with the emulated device's figures from a run of it.
CellRates with_emulated(CellRates cell, const SteadyFigures& emulated) {
    cell.emulated = emulated.batches_per_s;
    cell.emulated_host_us = emulated.host_us_per_batch;
    cell.emulated_stages = emulated.stages;
    cell.emulated_consumer_untraced_us = emulated.consumer_untraced_us_per_batch;
    return cell;
}

}  // namespace

ModelProfile::~ModelProfile() {
    std::error_code ignored;
    if (!temporary_.empty()) std::filesystem::remove(temporary_, ignored);
}

void ModelProfile::use(std::string device, std::string name, HardwareProfile profile) {
    device_ = std::move(device);
    name_ = std::move(name);
    profile_ = std::move(profile);
}

void ModelProfile::write(const HardwareProfile& profile, const std::string& out) {
    std::string path = out;
    if (path.empty()) {
        // Not named for the profile: a profile's name is any text its file gives.
        static int written = 0;
        path = (std::filesystem::temp_directory_path() /
                ("pinscope-validate-" + std::to_string(getpid()) + "-" + std::to_string(++written) + ".json"))
                   .string();
        temporary_ = path;
    }
    export_profile(path, profile);
    device_ = "emulated:" + path;
    name_ = "emulated:" + profile.name;
    profile_ = profile;
}

CellMeasure::CellMeasure(double seconds)
    : seconds_(seconds), driver_(nullptr, Measurement{seconds * 2 / 3, true, RunClock::Pace::Unpaced}) {}

std::optional<SteadyFigures> CellMeasure::measure(LoaderConfig config, const std::string& device, std::size_t k) {
    config.device = device;
    try {
        if (driver_.run(config)) return std::nullopt;  // interrupted
    } catch (const ConfigError& error) {
        throw UsageError("cell " + std::to_string(k + 1) + " on " + printable(device) + ": " + error.what());
    }
    const RunSummary summary = driver_.runner().summary();
    if (!summary.error.empty())
        throw std::runtime_error("cell " + std::to_string(k + 1) + " on " + printable(device) +
                                 ": run failed: " + summary.error);
    return steady_figures(*driver_.runner().trace(), driver_.runner().origin() + duration_ns(seconds_ * 1e9 / 3));
}

CellResults run_cells(CellMeasure& runs, const std::vector<ValidationCell>& drawn, const ModelProfile& model,
                      const CellPass& pass) {
    CellResults results;
    // A drawn pair's runs on the device alternate (run_groups): the host drifts over seconds
    // (filling rates read before cells on one H100 VM ranged from 2.9 to 6.6 GB/s).
    for (const RunGroup& group : run_groups(drawn, pass.earlier ? 1 : pass.repeat)) {
        if (RunDriver::interrupted()) break;
        const std::size_t first = group.first, count = group.cells;
        if (count == 2 && !pass.earlier)
            std::cerr << "cells " << first + 1 << " and " << first + 2 << " of " << drawn.size()
                      << ", their runs alternating ...\n"
                      << std::flush;
        // The host as it is now, before the cells' runs (under a second): how far it has moved.
        const std::optional<HostReading> host = pass.read_host_first ? std::optional<HostReading>(read_host()) : std::nullopt;
        std::vector<std::vector<double>> real(count), real_host_us(count), real_untraced_us(count);
        std::vector<std::vector<StageTimes>> real_stages(count);
        bool stopped = false;
        for (std::size_t run = 0; !pass.earlier && run < group.runs.size(); ++run) {
            const std::size_t k = group.runs[run], j = k - first;
            const std::optional<SteadyFigures> figures = runs.measure(drawn[k].config, pass.device, k);
            if (!figures) {
                stopped = true;
                break;
            }
            real[j].push_back(figures->batches_per_s);
            if (figures->host_us_per_batch > 0) real_host_us[j].push_back(figures->host_us_per_batch);
            real_stages[j].push_back(figures->stages);
            if (figures->consumer_untraced_us_per_batch > 0) real_untraced_us[j].push_back(figures->consumer_untraced_us_per_batch);
        }
        for (std::size_t j = 0; j < count && !stopped; ++j) {
            const std::size_t k = first + j;
            const std::optional<SteadyFigures> emulated = runs.measure(drawn[k].config, model.device(), k);
            if (!emulated) {
                stopped = true;
                break;
            }
            CellRates cell = with_emulated(
                pass.earlier ? pass.earlier->rates[k] : real_runs(real[j], emulated->batches_per_s), *emulated);
            if (!pass.earlier && !real_host_us[j].empty() && real_host_us[j].size() == real[j].size())
                cell.real_host_us = median(real_host_us[j]);
            if (!pass.earlier) cell.real_stages = median_stage_times(real_stages[j]);
            if (!pass.earlier && !real_untraced_us[j].empty() && real_untraced_us[j].size() == real[j].size())
                cell.real_consumer_untraced_us = median(real_untraced_us[j]);
            if (host) cell.host = host;
            std::cerr << "[" << k + 1 << "/" << drawn.size() << "] " << describe_cell(drawn[k].config) << ": "
                      << format_batches_per_s(cell.real) << " vs " << format_batches_per_s(cell.emulated)
                      << " batches/s (" << format_error(cell)
                      << (cell.real_count > 1 ? ", spread on " + printable(pass.real_name) + " " +
                                                    format_fixed(cell.real_spread * 100, 1) + " %"
                                              : "")
                      << ")\n";
            results.done.push_back(drawn[k]);
            results.rates.push_back(cell);
        }
        // Whole and in place after every cell: a GPU validation takes minutes, and a run killed
        // (out of time on a lent machine, say) would otherwise leave none of them.
        if (!pass.csv_path.empty()) export_validation_csv(pass.csv_path, results.done, results.rates);
        if (!pass.stages_path.empty()) export_stage_csv(pass.stages_path, results.rates);
        if (stopped) {
            std::cerr << "interrupted\n";
            break;
        }
    }
    return results;
}

void report_host_as_read(CellMeasure& runs, const ModelProfile& model, const CellResults& results,
                         const std::string& real_name) {
    const std::vector<HostReading> readings = host_readings(results.rates);
    const std::optional<HostReading> as_read =
        readings.size() == results.done.size() ? median_reading(readings) : std::nullopt;
    if (!as_read) return;
    HardwareProfile read_here = with_host_rates(model.profile(), *as_read);
    read_here.name += "-host-as-read";
    ModelProfile host_as_read;
    host_as_read.write(read_here, "");
    std::cerr << "the " << results.done.size() << " cells again on the model with the host's rates as read before them\n";
    std::vector<CellRates> again;
    for (std::size_t k = 0; k < results.done.size() && !RunDriver::interrupted(); ++k) {
        const std::optional<SteadyFigures> emulated = runs.measure(results.done[k].config, host_as_read.device(), k);
        if (!emulated) break;
        again.push_back(with_emulated(results.rates[k], *emulated));
    }
    if (again.size() == results.done.size())
        std::cout << '\n'
                  << format_host_as_read_report(results.done, again, printable(real_name), *as_read,
                                                host_reading_of(model.profile()))
                  << std::flush;
}

void report_host_as_ran(CellMeasure& runs, const ModelProfile& model, const CellResults& results,
                        const std::string& real_name) {
    const std::vector<CellRates>& rates = results.rates;
    const bool host_timed = std::all_of(rates.begin(), rates.end(), [](const CellRates& cell) {
        return cell.real_host_us > 0 && cell.emulated_host_us > 0;
    });
    if (!host_timed || RunDriver::interrupted()) return;
    std::cerr << "the " << results.done.size() << " cells again, each with the host as it ran in that cell on "
              << printable(real_name) << '\n';
    std::vector<CellRates> as_ran;
    for (std::size_t k = 0; k < results.done.size(); ++k) {
        // Two rounds: the host's work is not all rates (CPU time per sample).
        double speed = rates[k].emulated_host_us / rates[k].real_host_us;
        std::optional<SteadyFigures> emulated;
        for (int round = 0; round < 2 && !RunDriver::interrupted(); ++round) {
            ModelProfile sped;
            sped.write(with_host_speed(model.profile(), speed), "");
            emulated = runs.measure(results.done[k].config, sped.device(), k);
            if (!emulated) break;
            if (emulated->host_us_per_batch > 0) speed *= emulated->host_us_per_batch / rates[k].real_host_us;
        }
        if (!emulated) break;
        as_ran.push_back(with_emulated(rates[k], *emulated));
    }
    if (as_ran.size() == results.done.size())
        std::cout << '\n' << format_host_as_ran_report(results.done, as_ran, printable(real_name)) << std::flush;
}

}  // namespace pinscope::cli
