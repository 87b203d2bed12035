// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Output paths are checked before a run, so that a long run is not lost to a typo; the write after
// the run stays the real test.
#include <string>

namespace pinscope::cli {

enum class OutputKind { File, Directory };  // a directory is created when missing

// Throws std::runtime_error naming the flag, the path and why it cannot be written.
void check_writable(const char* flag, const std::string& path, OutputKind kind);

}  // namespace pinscope::cli
