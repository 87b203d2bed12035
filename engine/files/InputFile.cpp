// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/files/InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

std::string os_error(int error) { return std::generic_category().message(error); }

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

}  // namespace

std::uint64_t check_input_file(const std::string& path) {
    const Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (file.get() < 0) throw InputFileError("cannot read it: " + os_error(errno));
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw InputFileError("cannot read it: " + os_error(errno));
    if (!S_ISREG(info.st_mode)) throw InputFileError("it is " + std::string(kind_of(info.st_mode)) + ", not a file");
    return static_cast<std::uint64_t>(info.st_size);
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes) {
    const std::string allowed = "only a regular file of at most " + format_size_rounded(max_bytes) + " is read";
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    const Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (file.get() < 0) throw InputFileError("cannot read it: " + os_error(errno));
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw InputFileError("cannot read it: " + os_error(errno));
    if (!S_ISREG(info.st_mode)) throw InputFileError("it is " + std::string(kind_of(info.st_mode)) + "; " + allowed);
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > max_bytes)
        throw InputFileError("it holds " + format_size_rounded(size) + "; " + allowed);
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (true) {
        const ssize_t count = ::read(file.get(), buffer, sizeof buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) throw InputFileError("cannot read it: " + os_error(errno));
        if (count == 0) return text;
        // A file that grows while it is read (or one in /proc, whose size says 0) is held to the cap too.
        if (text.size() + static_cast<std::size_t>(count) > max_bytes)
            throw InputFileError("it holds more than " + format_size_rounded(max_bytes) + "; " + allowed);
        text.append(buffer, static_cast<std::size_t>(count));
    }
}

}  // namespace pinscope
