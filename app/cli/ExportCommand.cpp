// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ExportCommand.h"

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"

namespace pinscope::cli {

ExportCommand::ExportCommand(CLI::App& app)
    : command_(app.add_subcommand("export", "Write a recorded run's CSV, Chrome trace or summary, as run writes them")),
      input_(*command_, true),
      exports_(*command_) {}

bool ExportCommand::selected() const { return command_->parsed(); }

int ExportCommand::execute() const {
    if (!exports_.any()) throw UsageError("export: nothing to write; give --csv DIR, --trace FILE or --summary FILE");
    const auto reader = input_.open();
    const std::int64_t run = input_.pick(*reader);
    exports_.check_writable();
    const RecordedRun recorded = reader->load(run);
    const RunRecord& record = recorded.record;
    // The same calls the run's exports took, in the same order.
    RunFileExports exports(exports_.paths());
    exports.begin({record.origin});
    exports.record(record.spans, record.counters, record.markers);
    for (const NumaSample& sample : record.numa_samples) exports.record(sample);
    return exports_.finish(exports, record.summary) ? kExitOk : kExitFailure;
}

}  // namespace pinscope::cli
