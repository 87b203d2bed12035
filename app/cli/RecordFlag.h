// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --record FILE, which run and sweep share: each run is appended to the recording as it runs.
#include <memory>
#include <string>

#include "engine/record/RecordingWriter.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class RecordFlag {
public:
    explicit RecordFlag(CLI::App& command);  // adds the flag
    // The recording, opened (or created) before anything runs; null without the flag. A file that
    // is not a recording this version writes is bad input (UsageError, exit 2), left untouched.
    std::shared_ptr<RecordingWriter> open() const;
    // Writes the run's summary into the recording; on failure says why on stderr and returns false.
    static bool finish(RecordingWriter& recording, const RunSummary& summary);

private:
    std::string path_;
};

}  // namespace pinscope::cli
