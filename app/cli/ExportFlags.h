// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The export flags that run and export share (--csv DIR, --trace FILE, --summary FILE), their
// checks before anything runs, and the exports' commit with what was written said on stdout.
#include <string>

#include "engine/export/RunExports.h"

namespace CLI {
class App;
}

namespace pinscope::cli {

class ExportFlags {
public:
    explicit ExportFlags(CLI::App& command);  // adds the flags
    bool any() const { return !paths_.csv_dir.empty() || !paths_.trace_path.empty() || !paths_.summary_path.empty(); }
    const ExportPaths& paths() const { return paths_; }
    // Throws std::runtime_error naming the flag and the path that cannot be written.
    void check_writable() const;
    // Commits `exports` with `summary` and says on stdout what was written; on failure says why on
    // stderr and returns false.
    bool finish(RunFileExports& exports, const RunSummary& summary) const;

private:
    ExportPaths paths_;
};

}  // namespace pinscope::cli
