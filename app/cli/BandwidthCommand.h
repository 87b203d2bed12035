// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli bandwidth: copy bandwidth by size, direction and host memory, as a table and CSV.
#include <string>

namespace CLI {
class App;
}

namespace pinscope::cli {

class BandwidthCommand {
public:
    explicit BandwidthCommand(CLI::App& app);  // adds the subcommand
    bool selected() const;
    // The exit code; throws UsageError on bad input and std::exception when the device fails.
    int execute() const;

private:
    CLI::App* command_;
    std::string device_ = "auto";
    std::string min_size_ = "4K";
    std::string max_size_ = "1G";
    std::string directions_ = "h2d,d2h";
    std::string memories_ = "pinned,pageable,wc";
    std::string samples_ = "5";
    std::string csv_path_;
};

}  // namespace pinscope::cli
