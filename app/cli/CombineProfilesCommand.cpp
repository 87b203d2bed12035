// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CombineProfilesCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/CalibrateCommand.h"
#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"
#include "engine/calibrate/Calibration.h"
#include "engine/calibrate/ProfileCombination.h"
#include "engine/config/ConfigError.h"
#include "engine/device/ProfileTrust.h"

namespace pinscope::cli {

CombineProfilesCommand::CombineProfilesCommand(CLI::App& app, std::string command_line)
    : command_(app.add_subcommand("combine-profiles",
                                  "Make one profile from the calibrations of several machines of one kind")),
      command_line_(std::move(command_line)) {
    command_->add_option("profiles", inputs_, "the profiles to combine: two or more built-in names or JSON files")
        ->type_name("FILE|NAME")
        ->required();
    command_->add_option("--name", name_, "the combined profile's name")->type_name("NAME")->required();
    command_->add_option("--out", out_path_, "where to write the combined profile JSON")->type_name("FILE")->required();
    command_->footer(
        "Each figure is the median of the profiles' (copy bandwidth at each size, host rates, page-locking costs, "
        "the factors under load and by batch size); the profiles must have been calibrated by the same pinscope, at "
        "the same sizes. The combined profile's trust says how many machines it stands for and how far apart they "
        "were: the widest ratio between two of them for the pinned copies and for the host's figures.");
}

bool CombineProfilesCommand::selected() const { return command_->parsed(); }

int CombineProfilesCommand::execute() const {
    if (!valid_profile_name(name_))
        reject_flag("--name", name_, "letters, digits, '-', '_' and '.', not starting with '.' or '-'");
    if (inputs_.size() < 2) reject_flag("profiles", std::to_string(inputs_.size()) + " given", "two profiles or more");
    check_writable("--out", out_path_, OutputKind::File);
    std::vector<NamedProfile> profiles;
    for (const std::string& input : inputs_) {
        try {
            profiles.push_back({input, load_profile(input)});
        } catch (const ConfigError& error) {
            reject_flag("profiles", input, error.issue().allowed);
        }
    }
    HardwareProfile combined;
    try {
        combined = combine_profiles(profiles, name_, command_line_);
    } catch (const ConfigError& error) {
        throw UsageError(error.what());
    }
    export_profile(out_path_, combined);
    std::cout << "profile " << combined.name << ": " << combined.description << '\n'
              << "  " << trust_summary(combined) << '\n'
              << "wrote " << out_path_ << '\n';
    return kExitOk;
}

}  // namespace pinscope::cli
