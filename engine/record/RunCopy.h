// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a recording copied into another recording ("Save run as..."): its row, spans,
// counters, markers, NUMA samples and segments, streamed table by table (nothing of it held in
// memory). A run still being recorded is copied as it stands at its last commit, unfinished.
#include <cstdint>
#include <string>

namespace pinscope {

// Copies run `run` of the recording at `from` into `to`: appended when `to` is a recording this
// pinscope writes, created whole when there is no file there (written beside it and renamed, so
// that no half file is left). Returns the run's number in `to`. Throws RecordingError when either
// file is not a recording it can read or write (`to` is then left as it was), or when `to` is
// `from`; std::runtime_error when `to` cannot be written.
std::int64_t copy_recorded_run(const std::string& from, std::int64_t run, const std::string& to);

}  // namespace pinscope
