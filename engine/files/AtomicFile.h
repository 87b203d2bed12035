// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way the project writes files: whole or not at all, and never over what is not a file.
//
// How a path is treated:
//  - "-" and /dev/stdout are standard output, /dev/stderr and /dev/fd/N (/proc/self/fd/N) those
//    descriptors: written through as a stream, whatever they are (a pipe, a terminal, a file);
//  - a character device (/dev/null, /dev/full, a terminal) or a FIFO is written as a stream, in place;
//  - a symbolic link is followed and its final target replaced (the link stays);
//  - anything else is written to a temporary beside it, flushed to disk and renamed over it.
// A directory, block device or socket at the path is refused. Temporaries are named
// ".<name>.pinscope-<pid>-XXXXXX", so that the next writer into that folder removes those whose
// process is gone (one killed with SIGKILL).
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace pinscope {

// One output being written. Errors throw std::runtime_error "cannot write <path>: <reason>".
class OutputFile {
public:
    explicit OutputFile(std::string path);  // opens the stream or the temporary
    ~OutputFile();                          // not committed: the temporary goes, the target stays
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    const std::string& path() const { return path_; }
    bool is_stream() const;
    std::ostream& stream();

    // Flushes (and for a temporary, syncs and closes) what was written; throws on a write error.
    void finish_writing();
    // Renames the finished temporary over the target (nothing to do for a stream).
    void replace_target();
    void commit() {
        finish_writing();
        replace_target();
    }

    class Impl;

private:
    std::string path_;
    std::unique_ptr<Impl> impl_;
};

// Several outputs that replace their targets as one set: every one is written and synced before
// the first is renamed, so a failure leaves all the old files. Streams among them are flushed.
void commit_together(const std::vector<OutputFile*>& files);

// Calls `write` with a stream onto `path` and commits it. A new file gets the permissions the
// umask gives; a replaced one keeps its own.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// A scratch file in `directory` for data written now and read back before the end of the run. It
// has no name on disk (unlinked once open), so it cannot outlive the process. Throws like above.
struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using ScratchFile = std::unique_ptr<std::FILE, FileCloser>;
ScratchFile open_scratch_file(const std::string& directory);
// A value into a scratch file as its bytes, and back in the same order; false on a failed write
// or read (the end of the file included).
template <typename T>
bool scratch_put(std::FILE* file, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return std::fwrite(&value, sizeof value, 1, file) == 1;
}
template <typename T>
bool scratch_get(std::FILE* file, T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return std::fread(&value, sizeof value, 1, file) == 1;
}

// Removes the temporaries of pinscope processes that are gone from `directory`; best effort.
void remove_stale_temporaries(const std::string& directory);

// The descriptor a path names: 1 for "-" and /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N and
// /proc/self/fd/N; nullopt for any other path.
std::optional<int> descriptor_named(const std::string& path);

// The folder where an output's temporaries and scratch files go: that of the path's final target,
// or the system's temporary folder for a stream.
std::string scratch_directory_for(const std::string& path);

}  // namespace pinscope
