// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/RecordFlag.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/record/RecordingSchema.h"

namespace pinscope::cli {

RecordFlag::RecordFlag(CLI::App& command) {
    command.add_option("--record", path_,
                       "record the run (spans, counters, markers, summary) into this SQLite file as it runs; an "
                       "existing recording gets it appended (pinscope-cli runs, show, export read it)")
        ->type_name("FILE");
}

std::shared_ptr<RecordingWriter> RecordFlag::open() const {
    if (path_.empty()) return nullptr;
    try {
        return std::make_shared<RecordingWriter>(path_);
    } catch (const RecordingError& error) {
        throw UsageError(std::string("--record: ") + error.what());
    } catch (const std::exception& error) {
        throw std::runtime_error(std::string("--record: ") + error.what());
    }
}

bool RecordFlag::finish(RecordingWriter& recording, const RunSummary& summary) {
    try {
        recording.finish(summary);
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return false;
    }
    return true;
}

}  // namespace pinscope::cli
