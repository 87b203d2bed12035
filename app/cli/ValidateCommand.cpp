// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ValidateCommand.h"

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
#include "app/cli/ValidationPasses.h"
#include "engine/calibrate/Calibration.h"
#include "engine/calibrate/CalibrationSteps.h"
#include "engine/config/ConfigError.h"
#include "engine/config/DeviceChoice.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/factory/CalibrationProbeFactory.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/text/TextFormat.h"
#include "engine/validate/HostReading.h"
#include "engine/validate/ValidationReport.h"
#include "engine/text/UntrustedText.h"
#include "engine/validate/ValidationCsv.h"
#include "engine/validate/RecordedValidation.h"
#include "engine/validate/CallDrift.h"
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
    std::cerr << "calibrating " << probe->info().name << " first (" << kCalibrationTakes << ")\n";
    return calibrate_profile(*probe, options, print_calibration_steps(std::cerr));
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
                         "the copy, the kernel, ...) on each kind of lane, and the consumer's time in none of them "
                         "(untraced: its driver calls and its loop), on both devices, as CSV to this file, "
                         "again after each cell: what each cell's error is made of")
        ->type_name("FILE");
    command_->add_option("--against", against_,
                         "instead of running on --device, take its figures from FILE, the --csv of an earlier validate "
                         "(on a GPU elsewhere): only the emulated device runs, on that file's cells, with --profile")
        ->type_name("FILE");
    command_->add_option("--earlier", earlier_,
                         "the --csv of an earlier validate of the same cells (the same --seed and --cells, or of the "
                         "--against file's cells): also say how far the device's figures moved from that call to "
                         "this one, which no profile can come nearer to than the calls are to each other")
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

// The cells and the real device's figures of an earlier validate's CSV, named by `flag`.
RecordedValidation read_recorded(const char* flag, const std::string& path) {
    std::string text;
    try {
        text = read_input_file(path, kMaxJsonFileBytes);
    } catch (const std::exception& error) {
        reject_flag(flag, path, std::string("the --csv of an earlier validate: ") + error.what());
    }
    try {
        return parse_validation_csv(text);
    } catch (const ConfigError& error) {
        throw UsageError(std::string(flag) + " " + printable_path(path) + ": " + error.what());
    }
}

}  // namespace

// What the flags ask for, checked (UsageError naming the flag otherwise).
struct ValidateCommand::Request {
    std::size_t cells = 0;
    std::uint64_t seed = 0;
    double seconds = 0;
    std::size_t repeat = 1;
    bool recorded = false;    // --against: the GPU's figures come from a file
    DeviceChoice choice;
    bool on_gpu = false;      // the cells run on a GPU here
    bool calibrates = false;  // on that GPU, before the cells
    std::optional<HardwareProfile> given;  // the profile the emulated side runs, unless validate calibrates
};

ValidateCommand::Request ValidateCommand::checked_request() const {
    Request request;
    const auto cells = parse_number<std::size_t>(cells_);
    if (!cells || *cells < 2 || *cells > kMaxCells) reject_flag("--cells", cells_, "a whole number from 2 to 1000");
    const auto seed = parse_number<std::uint64_t>(seed_);
    if (!seed) reject_flag("--seed", seed_, "a whole number from 0 to 18446744073709551615");
    const auto seconds = parse_number<double>(seconds_);
    if (!seconds || !std::isfinite(*seconds) || *seconds <= 0 || *seconds > kMaxSeconds)
        reject_flag("--seconds", seconds_, "seconds above 0, at most 600");
    const auto repeat = parse_number<std::size_t>(repeat_);
    if (!repeat || *repeat < 1 || *repeat > kMaxRepeat) reject_flag("--repeat", repeat_, "a whole number from 1 to 10");
    request.cells = *cells;
    request.seed = *seed;
    request.seconds = *seconds;
    request.repeat = *repeat;
    request.recorded = !against_.empty();
    if (request.recorded) {
        // The file says what ran where: nothing here draws or runs cells on a device.
        for (const char* flag : {"--device", "--cells", "--seed", "--repeat", "--profile-out"})
            if (command_->count(flag) > 0)
                reject_flag(flag, command_->get_option(flag)->as<std::string>(),
                            "nothing with --against, whose file holds the cells and the device's figures");
        if (profile_.empty()) reject_flag("--against", against_, "a file with --profile, the profile to check against it");
    }
    const std::optional<DeviceChoice> choice = parse_device(device_);
    if (!choice || choice->kind == DeviceKind::Auto) reject_flag("--device", device_, "cuda, cuda:N or emulated:PROFILE");
    request.choice = *choice;
    request.on_gpu = choice->kind == DeviceKind::Cuda && !request.recorded;
    if (!request.on_gpu) {
        try {
            request.given = load_profile(choice->profile.empty() ? kDefaultProfile : choice->profile);
        } catch (const ConfigError&) {
            reject_flag("--device", device_, "emulated:PROFILE with a built-in profile name or a profile JSON file");
        }
    }
    if (!profile_.empty()) {
        try {
            request.given = load_profile(profile_);
        } catch (const ConfigError&) {
            reject_flag("--profile", profile_, "a built-in profile name or a profile JSON file");
        }
    }
    request.calibrates = request.on_gpu && profile_.empty();
    if (!profile_out_.empty()) {
        if (!request.calibrates)
            reject_flag("--profile-out", profile_out_, "a file only when validate calibrates (cuda, no --profile)");
        check_writable("--profile-out", profile_out_, OutputKind::File);
    }
    if (!trust_out_.empty()) {
        if (!(request.on_gpu && !request.calibrates) && !request.recorded)
            reject_flag("--trust-out", trust_out_, "a file only with a GPU --device or --against, and a --profile to validate");
        check_writable("--trust-out", trust_out_, OutputKind::File);
    }
    if (!csv_path_.empty()) check_writable("--csv", csv_path_, OutputKind::File);
    if (!stages_path_.empty()) check_writable("--stages-csv", stages_path_, OutputKind::File);
    return request;
}

ProfileValidation ValidateCommand::found(const Request& request, const CellResults& results,
                                         const HardwareProfile& profile) const {
    const ValidationSummary summary = summarize_validation(results.done, results.rates);
    ProfileValidation found;
    found.when = format_utc_minute(std::chrono::system_clock::now());
    if (request.recorded) {
        found.against = std::filesystem::path(against_).filename().string();
        found.recorded = true;
        for (const CellRates& cell : results.rates) found.repeat = std::max(found.repeat, cell.real_count);
    } else {
        const CudaDeviceList gpus = list_cuda_devices();
        const auto ordinal = static_cast<std::size_t>(request.choice.cuda_ordinal);
        found.against = ordinal < gpus.devices.size() ? gpus.devices[ordinal].name : device_;
        found.seed = request.seed;
        found.repeat = request.repeat;
    }
    found.calibrated_in_the_same_call = request.calibrates;
    found.cells = summary.cells;
    found.seconds = request.seconds;
    found.within_10 = summary.within_10;
    found.within_15 = summary.within_15;
    found.pairs_agreeing = summary.pairs_agreeing;
    found.pairs_counted = summary.pairs_counted;
    if (const std::optional<HostSpeed> speed = host_speed_against(host_readings(results.rates), host_reading_of(profile))) {
        found.host_slowest = speed->slowest;
        found.host_fastest = speed->fastest;
    }
    return found;
}

int ValidateCommand::execute() const {
    Request request = checked_request();
    const bool recorded = request.recorded;
    const std::optional<RecordedValidation> against_file =
        recorded ? std::optional<RecordedValidation>(read_recorded("--against", against_)) : std::nullopt;
    LoaderConfig base;
    base.seconds = request.seconds;
    base.batches.reset();
    std::vector<ValidationCell> drawn = against_file ? against_file->cells : draw_cells(base, request.cells, request.seed);
    if (against_file)
        for (ValidationCell& cell : drawn) {  // the file's cells run as long as drawn ones
            cell.config.seconds = base.seconds;
            cell.config.batches.reset();
        }
    // Checked before any cell runs or validate calibrates: the earlier call must be of these cells.
    const std::optional<RecordedValidation> earlier_file =
        earlier_.empty() ? std::nullopt : std::optional<RecordedValidation>(read_recorded("--earlier", earlier_));
    if (earlier_file) {
        const std::size_t k = first_differing_cell(*earlier_file, drawn);
        if (k < drawn.size())
            reject_flag("--earlier", earlier_,
                        "the --csv of an earlier validate of these " + std::to_string(drawn.size()) + " cells (" +
                            (k < earlier_file->cells.size() ? "its cell " + std::to_string(k + 1) + " is another"
                                                            : "it has " + std::to_string(earlier_file->cells.size())) +
                            "; draw them with its --seed and --cells)");
    }
    if (request.on_gpu && !request.calibrates) {  // a GPU that is not there fails here, before any cell
        LoaderConfig probe;
        probe.device = device_;
        open_device(probe);
    }
    ModelProfile model;
    if (request.calibrates)
        model.write(calibrate_here(device_, command_line_), profile_out_);
    else
        model.use(profile_.empty() ? device_ : "emulated:" + profile_,
                  profile_.empty() ? device_ + " (model)" : "emulated:" + profile_, std::move(*request.given));

    const std::string real_name = recorded ? "recorded" : device_;

    CellMeasure runs(request.seconds);
    std::cerr << "validating " << printable(model.device()) << " against "
              << (recorded ? "the figures in " + printable_path(against_) : printable(device_)) << ": " << drawn.size()
              << " cells of " << format_fixed(request.seconds, 1) << " s"
              << (recorded ? std::string() : ", seed " + std::to_string(request.seed)) << '\n';
    CellPass pass;
    pass.device = device_;
    pass.real_name = real_name;
    pass.repeat = request.repeat;
    pass.read_host_first = request.on_gpu;
    pass.earlier = against_file ? &*against_file : nullptr;
    pass.csv_path = csv_path_;
    pass.stages_path = stages_path_;
    const CellResults results = run_cells(runs, drawn, model, pass);
    const std::vector<ValidationCell>& done = results.done;
    const std::vector<CellRates>& rates = results.rates;
    if (RunDriver::interrupted())
        std::cerr << kProgram << ": interrupted after " << done.size() << " of " << drawn.size() << " cells\n";

    std::cout << format_validation_report(done, rates, printable(real_name), printable(model.name()),
                                          host_reading_of(model.profile()));
    if (earlier_file)
        std::cout << format_call_drift_report(call_drift(*earlier_file, done, rates), printable(real_name),
                                              printable_path(earlier_), printable(model.name()));
    std::cout << std::flush;
    // Whether every cell drawn ran: what the trust may record, even if a stop comes in what follows.
    const bool every_cell_ran = !RunDriver::interrupted();
    if (every_cell_ran) report_host_as_read(runs, model, results, real_name);
    if (every_cell_ran) report_host_as_ran(runs, model, results, real_name);
    // What was found goes into the profile's trust: only a validation of every cell drawn.
    if (every_cell_ran && (!trust_out_.empty() || (request.calibrates && !profile_out_.empty()))) {
        HardwareProfile trusted = model.profile();
        trusted.trust.validations.push_back(found(request, results, model.profile()));
        const std::string out = request.calibrates ? profile_out_ : trust_out_;
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
    if (request.calibrates && !profile_out_.empty()) std::cout << "calibrated profile in " << profile_out_ << '\n';
    return RunDriver::interrupted() ? app::InterruptSignals::exit_status() : kExitOk;
}

}  // namespace pinscope::cli
