// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli validate: how far to trust a profile. Runs random cells (engine/validate) on a GPU
// (or on an emulated device standing for one) and on the emulated device with the profile, and
// reports each cell's error and whether the two agree on which of two cells is faster.
#include <string>

namespace CLI {
class App;
}

namespace pinscope {
struct HardwareProfile;
struct ProfileValidation;
}  // namespace pinscope

namespace pinscope::cli {

struct CellResults;

class ValidateCommand {
public:
    ValidateCommand(CLI::App& app, std::string command_line);  // adds the subcommand
    bool selected() const;
    // The exit code; throws UsageError on bad input and std::exception when a run or the calibration fails.
    int execute() const;

private:
    struct Request;
    Request checked_request() const;
    // What the run found, for the profile's trust.
    ProfileValidation found(const Request& request, const CellResults& results, const HardwareProfile& profile) const;

    CLI::App* command_;
    std::string command_line_;
    std::string device_ = "cuda";
    std::string profile_;
    std::string profile_out_;
    std::string trust_out_;
    std::string cells_ = "40";
    std::string seed_ = "1";
    std::string seconds_ = "3";
    std::string repeat_ = "1";
    std::string csv_path_;
    std::string stages_path_;
    std::string against_;
    std::string earlier_;
};

}  // namespace pinscope::cli
