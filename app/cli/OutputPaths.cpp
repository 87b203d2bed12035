// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/OutputPaths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "engine/files/AtomicFile.h"

namespace pinscope::cli {

namespace fs = std::filesystem;

void check_writable(const char* flag, const std::string& path, OutputKind kind) {
    const auto fail = [&](const std::string& why) {
        throw std::runtime_error(std::string(flag) + ": cannot write " + path + ": " + why);
    };
    const bool directory = kind == OutputKind::Directory;
    if (descriptor_named(path)) {  // standard output and the like: written through
        if (directory) fail("a descriptor cannot hold a folder");
        return;
    }
    // A character device or a FIFO (also behind a link) is written in place: it needs no folder.
    struct stat info {};
    if (!directory && ::stat(path.c_str(), &info) == 0 && (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode))) {
        if (::access(path.c_str(), W_OK) != 0) fail("it is not writable");
        return;
    }
    std::error_code error;
    // A link is followed: its target is what gets replaced.
    const fs::path target = directory ? fs::absolute(path, error) : fs::weakly_canonical(fs::absolute(path, error), error);
    if (error) fail(error.message());
    if (directory && fs::exists(target, error) && !fs::is_directory(target, error)) fail("it is not a directory");
    if (!directory && fs::is_directory(target, error)) fail("it is a directory");
    // A file needs its folder; a directory needs its nearest existing ancestor, where it is created.
    fs::path folder = directory ? target : target.parent_path();
    while (directory && !fs::exists(folder, error) && folder != folder.parent_path()) folder = folder.parent_path();
    if (!fs::is_directory(folder, error)) fail("folder " + folder.string() + " does not exist");
    if (::access(folder.c_str(), W_OK) != 0) fail("folder " + folder.string() + " is not writable");
}

}  // namespace pinscope::cli
