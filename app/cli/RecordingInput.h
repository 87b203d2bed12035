// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What runs, show and export share: the recording named on the command line, opened read-only,
// and the run picked from it (--run N, else the last one, said on stderr when there are several).
#include <cstdint>
#include <memory>
#include <string>

#include "engine/record/RecordingReader.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class RecordingInput {
public:
    // Adds FILE, and with `pick_run` --run N, to `command`.
    RecordingInput(CLI::App& command, bool pick_run);

    const std::string& path() const { return path_; }

    // Throws RecordingError (bad input: exit 2) naming the file and what is wrong with it.
    std::unique_ptr<RecordingReader> open() const;
    // The run's number: --run's, or the last run's. Throws RecordingError or UsageError when there
    // is no such run.
    std::int64_t pick(const RecordingReader& reader) const;

private:
    std::string path_;
    std::int64_t run_ = 0;  // 0: not given
};

}  // namespace pinscope::cli
