#pragma once
// The one way the project writes export files: whole or not at all.
#include <functional>
#include <ostream>
#include <string>

namespace pinscope {

// Calls `write` with a stream onto a temporary file in the target's directory, then flushes it to
// disk and renames it over `path`. On any failure (directory missing, write error, `write`
// throwing) the temporary is removed, `path` is left untouched and std::runtime_error
// "cannot write <path>: <reason>" is thrown. A new file gets the permissions the umask gives; a
// replaced one keeps its own.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace pinscope
