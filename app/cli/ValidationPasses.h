// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The passes of pinscope-cli validate over its cells: each cell on the device and on the model
// (run_cells), then the model again with the host as read before the cells and as it ran in each.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/RunDriver.h"
#include "engine/device/HardwareProfile.h"
#include "engine/validate/RecordedValidation.h"
#include "engine/validate/SteadyRate.h"
#include "engine/validate/ValidationCells.h"
#include "engine/validate/ValidationReport.h"

namespace pinscope::cli {

// The profile the emulated side runs, in a file that the device string names; a calibrated
// profile goes to --profile-out, or to a temporary file removed at the end.
class ModelProfile {
public:
    ModelProfile() = default;
    ModelProfile(const ModelProfile&) = delete;
    ModelProfile& operator=(const ModelProfile&) = delete;
    ~ModelProfile();
    void use(std::string device, std::string name, HardwareProfile profile);
    void write(const HardwareProfile& profile, const std::string& out);
    const std::string& device() const { return device_; }
    const std::string& name() const { return name_; }  // for the report's column
    const HardwareProfile& profile() const { return profile_; }

private:
    std::string device_;
    std::string name_;
    HardwareProfile profile_;
    std::string temporary_;
};

// Runs of a cell's configuration, each `seconds` long, unpaced (the emulated runs, in modelled
// time, take less than their length).
class CellMeasure {
public:
    explicit CellMeasure(double seconds);
    // The figures over the run's last two thirds (steady_figures: the pinned pool has warmed up by
    // then), or none when interrupted. Throws UsageError for a configuration the device refuses
    // and std::runtime_error for a run that fails; both name cell `k`.
    std::optional<SteadyFigures> measure(LoaderConfig config, const std::string& device, std::size_t k);

private:
    double seconds_;
    RunDriver driver_;
};

struct CellResults {
    std::vector<ValidationCell> done;  // the cells that ran, in order
    std::vector<CellRates> rates;      // and their figures
};

struct CellPass {
    std::string device;        // the real one (unused with `earlier`)
    std::string real_name;     // how the report names it
    std::size_t repeat = 1;    // runs of each cell on it
    bool read_host_first = false;  // read the host before each cell or pair (on a GPU)
    const RecordedValidation* earlier = nullptr;  // its figures instead of runs on `device`
    std::string csv_path;      // written again after each cell or pair, when not empty
    std::string stages_path;
};

// Each cell on the device (a drawn pair's runs alternating, run_groups) and then on `model`;
// prints each cell's figures to stderr as it ends. Stops early where interrupted.
CellResults run_cells(CellMeasure& runs, const std::vector<ValidationCell>& drawn, const ModelProfile& model,
                      const CellPass& pass);

// The model again with the host's rates as read before the cells (their median): how much of the
// error is the host's state at the time. Prints its report; nothing where a reading is missing.
void report_host_as_read(CellMeasure& runs, const ModelProfile& model, const CellResults& results,
                         const std::string& real_name);

// Each cell once more with the host as the real device ran it in that cell (its load and collate
// per batch): not a prediction, as the cell's own figures go in, but what is left is the rest of
// the model. Prints its report; nothing where the host was not timed in every cell.
void report_host_as_ran(CellMeasure& runs, const ModelProfile& model, const CellResults& results,
                        const std::string& real_name);

}  // namespace pinscope::cli
