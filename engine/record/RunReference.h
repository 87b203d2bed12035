// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A recorded run named on a command line or in a dialog: "FILE" (the file's last run) or
// "FILE:RUN", as pinscope-cli compare and pinscope --compare take them; the CLI also takes
// "FILE:RUN:SEGMENT", one segment of a run.
#include <cstdint>
#include <string>

namespace pinscope {

class RecordingReader;

struct RunReference {
    std::string path;
    std::int64_t run = 0;       // 0: the file's last
    std::uint32_t segment = 0;  // 0: the whole run
};

// "FILE", "FILE:RUN" or "FILE:RUN:SEGMENT"; a file whose own name ends in ":N" is taken whole.
// Throws RecordingError for a run or segment number below 1.
RunReference parse_run_reference(const std::string& text);

// The run's number in `reader`: `run` when the file holds it, or with `run` 0 the file's last.
// Throws RecordingError naming the file when there is no such run, or no run at all.
std::int64_t pick_run(const RecordingReader& reader, std::int64_t run);

// "run 2 of a.pinscope", the path printable.
std::string run_label(const std::string& path, std::int64_t run);

}  // namespace pinscope
