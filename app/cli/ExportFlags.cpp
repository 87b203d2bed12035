// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ExportFlags.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/cli/OutputPaths.h"

namespace pinscope::cli {

ExportFlags::ExportFlags(CLI::App& command) {
    command.add_option("--csv", paths_.csv_dir, "write spans.csv, counters.csv, numa.csv and summary.json into this folder")
        ->type_name("DIR");
    command.add_option("--trace", paths_.trace_path, "write a Chrome trace (opens in Perfetto) to this file")
        ->type_name("FILE");
    command.add_option("--summary", paths_.summary_path, "write the summary as JSON to this file")->type_name("FILE");
}

void ExportFlags::check_writable() const {
    if (!paths_.csv_dir.empty()) pinscope::cli::check_writable("--csv", paths_.csv_dir, OutputKind::Directory);
    if (!paths_.trace_path.empty()) pinscope::cli::check_writable("--trace", paths_.trace_path, OutputKind::File);
    if (!paths_.summary_path.empty()) pinscope::cli::check_writable("--summary", paths_.summary_path, OutputKind::File);
}

bool ExportFlags::finish(RunFileExports& exports, const RunSummary& summary) const {
    try {
        exports.finish(summary);
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return false;
    }
    if (!paths_.csv_dir.empty()) std::cout << "wrote spans.csv, counters.csv, numa.csv, summary.json to " << paths_.csv_dir << '\n';
    if (!paths_.trace_path.empty()) std::cout << "wrote " << paths_.trace_path << '\n';
    if (!paths_.summary_path.empty()) std::cout << "wrote " << paths_.summary_path << '\n';
    std::cout << std::flush;
    return true;
}

}  // namespace pinscope::cli
