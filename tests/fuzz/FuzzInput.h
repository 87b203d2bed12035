// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the fuzz targets share: the input as a file (the programs read configurations, profiles
// and topologies from files, and those reads are part of what is tested), and the one entry point
// libFuzzer and the replay main (ReplayMain.cpp) call.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace pinscope::fuzz {

// A memory-backed regular file holding the latest input; its path is /proc/self/fd/N.
class InputAsFile {
public:
    InputAsFile() : fd_(memfd_create("fuzz-input", 0)) {
        if (fd_ < 0) std::abort();
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    const std::string& write(const std::uint8_t* data, std::size_t size) {
        if (ftruncate(fd_, 0) != 0) std::abort();
        std::size_t done = 0;
        while (done < size) {
            const ssize_t written = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
            if (written <= 0) std::abort();
            done += static_cast<std::size_t>(written);
        }
        return path_;
    }

private:
    int fd_;
    std::string path_;
};

// The same as a file with a name of its own under the temporary folder, for readers that need a
// real path: SQLite resolves /proc/self/fd/N to the memfd's name, which does not open. Removed
// when the process ends normally.
class InputAsTempFile {
public:
    InputAsTempFile() {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/pinscope-fuzz-XXXXXX";
        fd_ = mkstemp(path_.data());
        if (fd_ < 0) std::abort();
    }
    ~InputAsTempFile() {
        close(fd_);
        unlink(path_.c_str());
    }
    InputAsTempFile(const InputAsTempFile&) = delete;
    InputAsTempFile& operator=(const InputAsTempFile&) = delete;
    const std::string& write(const std::uint8_t* data, std::size_t size) {
        if (ftruncate(fd_, 0) != 0) std::abort();
        std::size_t done = 0;
        while (done < size) {
            const ssize_t written = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
            if (written <= 0) std::abort();
            done += static_cast<std::size_t>(written);
        }
        return path_;
    }

private:
    int fd_ = -1;
    std::string path_;
};

}  // namespace pinscope::fuzz
