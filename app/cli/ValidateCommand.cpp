// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ValidateCommand.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "app/cli/RunDriver.h"
#include "app/cli/SweepTable.h"
#include "app/cli/ValidateTable.h"
#include "engine/calibrate/Calibration.h"
#include "engine/config/ConfigError.h"
#include "engine/config/DeviceChoice.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/factory/CalibrationProbeFactory.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/text/TextFormat.h"
#include "engine/validate/HostReading.h"
#include "engine/validate/ValidationReport.h"
#include "engine/text/UntrustedText.h"
#include "engine/clock/SteadyClock.h"
#include "engine/metrics/Median.h"
#include "engine/validate/SteadyRate.h"
#include "engine/validate/ValidationCsv.h"
#include "engine/validate/RecordedValidation.h"
#include "engine/files/InputFile.h"

namespace pinscope::cli {
namespace {

constexpr std::size_t kMaxCells = 1000;
constexpr double kMaxSeconds = 600;
constexpr std::size_t kMaxRepeat = 10;

template <class T>
std::optional<T> parse_number(const std::string& text) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// `cell` with the emulated device's figures from a run of it.
CellRates with_emulated(CellRates cell, const SteadyFigures& emulated) {
    cell.emulated = emulated.batches_per_s;
    cell.emulated_host_us = emulated.host_us_per_batch;
    cell.emulated_stages = emulated.stages;
    return cell;
}

// The profile the emulated side runs, in a file that the device string names; a calibrated
// profile goes to --profile-out, or to a temporary file removed at the end.
class ModelProfile {
public:
    ModelProfile() = default;
    ModelProfile(const ModelProfile&) = delete;
    ModelProfile& operator=(const ModelProfile&) = delete;
    ~ModelProfile() {
        std::error_code ignored;
        if (!temporary_.empty()) std::filesystem::remove(temporary_, ignored);
    }
    void use(std::string device, std::string name, HardwareProfile profile) {
        device_ = std::move(device);
        name_ = std::move(name);
        profile_ = std::move(profile);
    }
    void write(const HardwareProfile& profile, const std::string& out) {
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
    const std::string& device() const { return device_; }
    const std::string& name() const { return name_; }  // for the report's column
    const HardwareProfile& profile() const { return profile_; }

private:
    std::string device_;
    std::string name_;
    HardwareProfile profile_;
    std::string temporary_;
};

HardwareProfile calibrate_here(const std::string& device, const std::string& command_line) {
    std::unique_ptr<CalibrationProbe> probe;
    try {
        probe = open_calibration_probe(device);
    } catch (const ConfigError&) {
        reject_flag("--device", device, "cuda, cuda:N or emulated:PROFILE");
    }
    CalibrationOptions options;
    options.name = "validate-calibrated";
    options.command = command_line;
    options.pipeline_device = device;  // what the pipeline's frees and page-locking calls cost in it
    std::cerr << "calibrating " << probe->info().name << " first (a minute or two)\n";
    std::string last_step;
    return calibrate_profile(*probe, options, [&](const std::string& step, double fraction) {
        if (step == last_step) return;
        last_step = step;
        std::cerr << "[" << format_fixed(100 * fraction, 0) << "%] " << step << '\n';
    });
}

}  // namespace

ValidateCommand::ValidateCommand(CLI::App& app, std::string command_line)
    : command_(app.add_subcommand("validate", "Measure how close the emulated device comes to a GPU, on random cells")),
      command_line_(std::move(command_line)) {
    command_->add_option("--device", device_,
                         "what the emulated device is checked against: cuda or cuda:N (a GPU), or emulated:PROFILE "
                         "(a profile standing for one: one profile against another, or against itself)")
        ->type_name("DEVICE")
        ->capture_default_str();
    command_->add_option("--profile", profile_,
                         "the profile the emulated device runs, a built-in name or a JSON file (default: calibrated "
                         "first on the GPU; with --device emulated:PROFILE, that profile)")
        ->type_name("FILE|NAME");
    command_->add_option("--profile-out", profile_out_, "write the profile calibrated first to this file")
        ->type_name("FILE");
    command_->add_option("--trust-out", trust_out_,
                         "write the --profile given, with what this validation found added to its trust (a GPU "
                         "--device, or --against: figures a GPU recorded), to this file")
        ->type_name("FILE");
    command_->add_option("--cells", cells_, "how many cells to draw: 2 to 1000")->type_name("N")->capture_default_str();
    command_->add_option("--seed", seed_, "the draw's seed: the same seed draws the same cells everywhere")
        ->type_name("S")
        ->capture_default_str();
    command_->add_option("--seconds", seconds_, "each cell's run on each device, above 0 and at most 600 seconds")
        ->type_name("S")
        ->capture_default_str();
    command_->add_option("--repeat", repeat_,
                         "run each cell this many times on --device, 1 to 10: its figure is their median, and the "
                         "report says how far the device's own runs spread")
        ->type_name("N")
        ->capture_default_str();
    command_->add_option("--csv", csv_path_,
                         "write the cells' table as CSV to this file, again after each cell, so that a run stopped "
                         "or killed keeps the cells it finished")
        ->type_name("FILE");
    command_->add_option("--stages-csv", stages_path_,
                         "write each cell's time per batch in every stage (load, collate, pin, staging, free, wait, "
                         "the copy, the kernel, ...) on each kind of lane, on both devices, as CSV to this file, "
                         "again after each cell: what each cell's error is made of")
        ->type_name("FILE");
    command_->add_option("--against", against_,
                         "instead of running on --device, take its figures from FILE, the --csv of an earlier validate "
                         "(on a GPU elsewhere): only the emulated device runs, on that file's cells, with --profile")
        ->type_name("FILE");
    command_->footer(
        "Cells are drawn from the seed over batch bytes (1 to 256 MB), element types, samples per batch, CPU time "
        "per sample, workers, prefetch, pin_memory, every pin mode, non_blocking and kernel time, in pairs whose "
        "second cell changes one setting of the first. Each cell runs on --device and on the emulated device (in "
        "modelled time, which is quick); its figure is batches/s after the first third of the run. The report gives "
        "each cell's error, the share within 10 % and 15 %, and for every two cells that differ in one setting "
        "whether the emulated device names the same faster cell. Before each cell on a GPU it reads the host as "
        "calibrate measures it (filling, collating into new pages, freeing a worker's 16 MiB batch, the pin copy; "
        "under a second) "
        "and reports how far those readings ranged against the profile's own figures. It also times the host's "
        "work per batch during each cell on both devices (loading and collating, after the first third) and says, "
        "of the cells that missed, which had the host off the same way; then runs the cells again with the host's "
        "rates as read (where it read them) and with each cell's host as it ran (not a prediction), to tell the "
        "host's moving from the rest of the model. Ctrl-C stops and reports the cells run so "
        "far.");
}

bool ValidateCommand::selected() const { return command_->parsed(); }

namespace {

// The cells and the real device's figures of an earlier validate's CSV.
RecordedValidation read_recorded(const std::string& path) {
    std::string text;
    try {
        text = read_input_file(path, kMaxJsonFileBytes);
    } catch (const std::exception& error) {
        reject_flag("--against", path, std::string("the --csv of an earlier validate: ") + error.what());
    }
    try {
        return parse_validation_csv(text);
    } catch (const ConfigError& error) {
        throw UsageError("--against " + printable_path(path) + ": " + error.what());
    }
}

}  // namespace

int ValidateCommand::execute() const {
    const auto cells = parse_number<std::size_t>(cells_);
    if (!cells || *cells < 2 || *cells > kMaxCells) reject_flag("--cells", cells_, "a whole number from 2 to 1000");
    const auto seed = parse_number<std::uint64_t>(seed_);
    if (!seed) reject_flag("--seed", seed_, "a whole number from 0 to 18446744073709551615");
    const auto seconds = parse_number<double>(seconds_);
    if (!seconds || !std::isfinite(*seconds) || *seconds <= 0 || *seconds > kMaxSeconds)
        reject_flag("--seconds", seconds_, "seconds above 0, at most 600");
    const auto repeat = parse_number<std::size_t>(repeat_);
    if (!repeat || *repeat < 1 || *repeat > kMaxRepeat) reject_flag("--repeat", repeat_, "a whole number from 1 to 10");
    const bool recorded = !against_.empty();
    if (recorded) {
        // The file says what ran where: nothing here draws or runs cells on a device.
        for (const char* flag : {"--device", "--cells", "--seed", "--repeat", "--profile-out"})
            if (command_->count(flag) > 0)
                reject_flag(flag, command_->get_option(flag)->as<std::string>(),
                            "nothing with --against, whose file holds the cells and the device's figures");
        if (profile_.empty()) reject_flag("--against", against_, "a file with --profile, the profile to check against it");
    }
    const std::optional<DeviceChoice> choice = parse_device(device_);
    if (!choice || choice->kind == DeviceKind::Auto) reject_flag("--device", device_, "cuda, cuda:N or emulated:PROFILE");
    const bool on_gpu = choice->kind == DeviceKind::Cuda && !recorded;
    std::optional<HardwareProfile> given;  // the profile the emulated side runs, unless validate calibrates
    if (!on_gpu) {
        try {
            given = load_profile(choice->profile.empty() ? kDefaultProfile : choice->profile);
        } catch (const ConfigError&) {
            reject_flag("--device", device_, "emulated:PROFILE with a built-in profile name or a profile JSON file");
        }
    }
    if (!profile_.empty()) {
        try {
            given = load_profile(profile_);
        } catch (const ConfigError&) {
            reject_flag("--profile", profile_, "a built-in profile name or a profile JSON file");
        }
    }
    const bool calibrates = on_gpu && profile_.empty();
    if (!profile_out_.empty()) {
        if (!calibrates) reject_flag("--profile-out", profile_out_, "a file only when validate calibrates (cuda, no --profile)");
        check_writable("--profile-out", profile_out_, OutputKind::File);
    }
    if (!trust_out_.empty()) {
        if (!(on_gpu && !calibrates) && !recorded)
            reject_flag("--trust-out", trust_out_, "a file only with a GPU --device or --against, and a --profile to validate");
        check_writable("--trust-out", trust_out_, OutputKind::File);
    }
    if (!csv_path_.empty()) check_writable("--csv", csv_path_, OutputKind::File);
    if (!stages_path_.empty()) check_writable("--stages-csv", stages_path_, OutputKind::File);

    const std::optional<RecordedValidation> earlier =
        recorded ? std::optional<RecordedValidation>(read_recorded(against_)) : std::nullopt;
    if (on_gpu && !calibrates) {  // a GPU that is not there fails here, before any cell
        LoaderConfig probe;
        probe.device = device_;
        open_device(probe);
    }
    ModelProfile model;
    if (calibrates)
        model.write(calibrate_here(device_, command_line_), profile_out_);
    else
        model.use(profile_.empty() ? device_ : "emulated:" + profile_,
                  profile_.empty() ? device_ + " (model)" : "emulated:" + profile_, std::move(*given));

    LoaderConfig base;
    base.seconds = *seconds;
    base.batches.reset();
    std::vector<ValidationCell> drawn = earlier ? earlier->cells : draw_cells(base, *cells, *seed);
    if (earlier)
        for (ValidationCell& cell : drawn) {  // the file's cells run as long as drawn ones
            cell.config.seconds = base.seconds;
            cell.config.batches.reset();
        }
    const std::string real_name = recorded ? "recorded" : device_;

    // Figures over the last two thirds of each run (steady_figures): the pinned pool has warmed up
    // by then. Unpaced: the emulated runs (modelled time) take less than their length.
    RunDriver driver(nullptr, Measurement{*seconds * 2 / 3, true, RunClock::Pace::Unpaced});
    const auto measure = [&](LoaderConfig config, const std::string& device,
                             std::size_t k) -> std::optional<SteadyFigures> {
        config.device = device;
        try {
            if (driver.run(config)) return std::nullopt;  // interrupted
        } catch (const ConfigError& error) {
            throw UsageError("cell " + std::to_string(k + 1) + " on " + printable(device) + ": " + error.what());
        }
        const RunSummary summary = driver.runner().summary();
        if (!summary.error.empty())
            throw std::runtime_error("cell " + std::to_string(k + 1) + " on " + printable(device) +
                                     ": run failed: " + summary.error);
        return steady_figures(*driver.runner().trace(), driver.runner().origin() + duration_ns(*seconds * 1e9 / 3));
    };
    std::cerr << "validating " << printable(model.device()) << " against "
              << (recorded ? "the figures in " + printable_path(against_) : printable(device_)) << ": " << drawn.size()
              << " cells of " << format_fixed(*seconds, 1) << " s"
              << (recorded ? std::string() : ", seed " + std::to_string(*seed)) << '\n';
    std::vector<ValidationCell> done;
    std::vector<CellRates> rates;
    // A drawn pair's runs on the device alternate (run_groups): the host drifts over seconds
    // (filling rates read before cells on one H100 VM ranged from 2.9 to 6.6 GB/s).
    std::size_t first = 0;
    for (const std::vector<std::size_t>& group : run_groups(drawn, earlier ? 1 : *repeat)) {
        if (RunDriver::interrupted()) break;
        const std::size_t count = *std::max_element(group.begin(), group.end()) - first + 1;
        if (count == 2 && !earlier)
            std::cerr << "cells " << first + 1 << " and " << first + 2 << " of " << drawn.size()
                      << ", their runs alternating ...\n"
                      << std::flush;
        // The host as it is now, before the cells' runs (under a second): how far it has moved.
        const std::optional<HostReading> host = on_gpu ? std::optional<HostReading>(read_host()) : std::nullopt;
        std::vector<std::vector<double>> real(count), real_host_us(count);
        std::vector<std::vector<StageTimes>> real_stages(count);
        bool stopped = false;
        for (std::size_t run = 0; !earlier && run < group.size(); ++run) {
            const std::size_t k = group[run], j = k - first;
            const std::optional<SteadyFigures> figures = measure(drawn[k].config, device_, k);
            if (!figures) {
                stopped = true;
                break;
            }
            real[j].push_back(figures->batches_per_s);
            if (figures->host_us_per_batch > 0) real_host_us[j].push_back(figures->host_us_per_batch);
            real_stages[j].push_back(figures->stages);
        }
        for (std::size_t j = 0; j < count && !stopped; ++j) {
            const std::size_t k = first + j;
            const std::optional<SteadyFigures> emulated = measure(drawn[k].config, model.device(), k);
            if (!emulated) {
                stopped = true;
                break;
            }
            CellRates cell =
                with_emulated(earlier ? earlier->rates[k] : real_runs(real[j], emulated->batches_per_s), *emulated);
            if (!earlier && !real_host_us[j].empty() && real_host_us[j].size() == real[j].size())
                cell.real_host_us = median(real_host_us[j]);
            if (!earlier) cell.real_stages = median_stage_times(real_stages[j]);
            if (host) cell.host = host;
            std::cerr << "[" << k + 1 << "/" << drawn.size() << "] " << describe_cell(drawn[k].config) << ": "
                      << format_batches_per_s(cell.real) << " vs " << format_batches_per_s(cell.emulated)
                      << " batches/s (" << format_error(cell)
                      << (cell.real_count > 1 ? ", spread on " + printable(real_name) + " " +
                                                    format_fixed(cell.real_spread * 100, 1) + " %"
                                              : "")
                      << ")\n";
            done.push_back(drawn[k]);
            rates.push_back(cell);
        }
        // Whole and in place after every cell: a GPU validation takes minutes, and a run killed
        // (out of time on a lent machine, say) would otherwise leave none of them.
        if (!csv_path_.empty()) export_validation_csv(csv_path_, done, rates);
        if (!stages_path_.empty()) export_stage_csv(stages_path_, rates);
        if (stopped) {
            std::cerr << "interrupted\n";
            break;
        }
        first += count;
    }
    if (RunDriver::interrupted())
        std::cerr << kProgram << ": interrupted after " << done.size() << " of " << drawn.size() << " cells\n";

    std::cout << format_validation_report(done, rates, printable(real_name), printable(model.name()),
                                          host_reading_of(model.profile())) << std::flush;
    // Whether every cell drawn ran: what the trust may record, even if a stop comes in what follows.
    const bool every_cell_ran = !RunDriver::interrupted();
    // The emulated side again with the host's rates as read before the cells: how much of the
    // error is the host's state at the time rather than the model.
    const std::vector<HostReading> readings = host_readings(rates);
    const std::optional<HostReading> as_read =
        readings.size() == done.size() ? median_reading(readings) : std::nullopt;
    if (as_read && every_cell_ran) {
        HardwareProfile read_here = with_host_rates(model.profile(), *as_read);
        read_here.name += "-host-as-read";
        ModelProfile host_as_read;
        host_as_read.write(read_here, "");
        std::cerr << "the " << done.size() << " cells again on the model with the host's rates as read before them\n";
        std::vector<CellRates> again;
        for (std::size_t k = 0; k < done.size() && !RunDriver::interrupted(); ++k) {
            const std::optional<SteadyFigures> emulated = measure(done[k].config, host_as_read.device(), k);
            if (!emulated) break;
            again.push_back(with_emulated(rates[k], *emulated));
        }
        if (again.size() == done.size())
            std::cout << '\n'
                      << format_host_as_read_report(done, again, printable(real_name), *as_read,
                                                    host_reading_of(model.profile()))
                      << std::flush;
    }
    // Each cell once more with the host as the real device ran it in that cell (its load and collate
    // per batch, steady_figures): not a prediction, as the cell's own figures go in, but what is left
    // is the rest of the model. Two rounds: the host's work is not all rates (CPU time per sample).
    const bool host_timed = std::all_of(rates.begin(), rates.end(), [](const CellRates& cell) {
        return cell.real_host_us > 0 && cell.emulated_host_us > 0;
    });
    if (every_cell_ran && host_timed && !RunDriver::interrupted()) {
        std::cerr << "the " << done.size() << " cells again, each with the host as it ran in that cell on "
                  << printable(real_name) << '\n';
        std::vector<CellRates> as_ran;
        for (std::size_t k = 0; k < done.size(); ++k) {
            double speed = rates[k].emulated_host_us / rates[k].real_host_us;
            std::optional<SteadyFigures> emulated;
            for (int round = 0; round < 2 && !RunDriver::interrupted(); ++round) {
                ModelProfile sped;
                sped.write(with_host_speed(model.profile(), speed), "");
                emulated = measure(done[k].config, sped.device(), k);
                if (!emulated) break;
                if (emulated->host_us_per_batch > 0) speed *= emulated->host_us_per_batch / rates[k].real_host_us;
            }
            if (!emulated) break;
            as_ran.push_back(with_emulated(rates[k], *emulated));
        }
        if (as_ran.size() == done.size())
            std::cout << '\n' << format_host_as_ran_report(done, as_ran, printable(real_name)) << std::flush;
    }
    // What was found goes into the profile's trust: only a validation of every cell drawn.
    if (every_cell_ran && (!trust_out_.empty() || (calibrates && !profile_out_.empty()))) {
        const ValidationSummary summary = summarize_validation(done, rates);
        ProfileValidation found;
        found.when = format_utc_minute(std::chrono::system_clock::now());
        if (recorded) {
            found.against = std::filesystem::path(against_).filename().string();
            found.recorded = true;
            for (const CellRates& cell : rates) found.repeat = std::max(found.repeat, cell.real_count);
        } else {
            const CudaDeviceList gpus = list_cuda_devices();
            const auto ordinal = static_cast<std::size_t>(choice->cuda_ordinal);
            found.against = ordinal < gpus.devices.size() ? gpus.devices[ordinal].name : device_;
            found.seed = *seed;
            found.repeat = *repeat;
        }
        found.calibrated_in_the_same_call = calibrates;
        found.cells = summary.cells;
        found.seconds = *seconds;
        found.within_10 = summary.within_10;
        found.within_15 = summary.within_15;
        found.pairs_agreeing = summary.pairs_agreeing;
        found.pairs_counted = summary.pairs_counted;
        if (const std::optional<HostSpeed> speed = host_speed_against(readings, host_reading_of(model.profile()))) {
            found.host_slowest = speed->slowest;
            found.host_fastest = speed->fastest;
        }
        HardwareProfile trusted = model.profile();
        trusted.trust.validations.push_back(found);
        const std::string out = calibrates ? profile_out_ : trust_out_;
        export_profile(out, trusted);
        std::cout << "added this validation to the trust of the profile in " << out << '\n';
    }
    if (!csv_path_.empty()) {
        if (done.empty()) export_validation_csv(csv_path_, done, rates);  // each cell wrote it otherwise
        std::cout << "wrote " << csv_path_ << '\n';
    }
    if (!stages_path_.empty()) {
        if (done.empty()) export_stage_csv(stages_path_, rates);
        std::cout << "wrote " << stages_path_ << '\n';
    }
    if (calibrates && !profile_out_.empty()) std::cout << "calibrated profile in " << profile_out_ << '\n';
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
