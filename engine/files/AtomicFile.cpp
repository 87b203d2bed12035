// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/files/AtomicFile.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <streambuf>
#include <tuple>

namespace pinscope {

namespace {

constexpr const char* kTempTag = ".pinscope-";  // .<name>.pinscope-<pid>-XXXXXX
constexpr int kMaxLinks = 40;                   // as the kernel's own limit on a path's links
constexpr std::size_t kBufferBytes = 1 << 20;

std::string errno_text(int error) { return std::strerror(error); }

[[noreturn]] void fail_errno(const char* what) {
    const int error = errno;
    throw std::runtime_error(std::string(what) + ": " + errno_text(error));
}

// A stream buffer onto a FILE*: stdio does the buffering; the first failing errno is kept.
class FileStreamBuf : public std::streambuf {
public:
    explicit FileStreamBuf(std::FILE* file) : file_(file) {}
    int error() const { return error_; }

protected:
    int_type overflow(int_type ch) override {
        if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
        const char c = traits_type::to_char_type(ch);
        return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
    }
    std::streamsize xsputn(const char* data, std::streamsize count) override {
        if (error_ != 0) return 0;
        const std::size_t written = std::fwrite(data, 1, static_cast<std::size_t>(count), file_);
        if (written != static_cast<std::size_t>(count)) error_ = errno != 0 ? errno : EIO;
        return static_cast<std::streamsize>(written);
    }

private:
    std::FILE* file_;
    int error_ = 0;
};

// The umask, read without changing it (umask(2) would race with other threads creating files).
mode_t current_umask() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "Umask:") {
            std::string octal;
            status >> octal;
            unsigned mask = 022;
            std::from_chars(octal.data(), octal.data() + octal.size(), mask, 8);
            return static_cast<mode_t>(mask);
        }
        status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 022;
}

mode_t mode_for(const std::string& path) {
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0) return existing.st_mode & 07777;
    return 0666 & ~current_umask();
}

std::string directory_of(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

// Flushes the rename to disk too; best effort, as the file itself is complete already.
void sync_directory(const std::string& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// The path with every symbolic link along the last component followed; the final target may not
// exist yet (a dangling link gets its target created).
std::string final_target(const std::string& path) {
    std::string current = path;
    for (int i = 0; i < kMaxLinks; ++i) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
        std::string link(static_cast<std::size_t>(info.st_size > 0 ? info.st_size : 4096) + 1, '\0');
        const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
        if (length < 0) fail_errno("cannot read the link");
        link.resize(static_cast<std::size_t>(length));
        const std::filesystem::path target(link);
        current = target.is_absolute() ? link : (std::filesystem::path(directory_of(current)) / target).string();
    }
    throw std::runtime_error("too many levels of symbolic links");
}

// Whether the path (its links followed) is a character device or a FIFO: written in place.
// Anything else but a regular file or nothing is refused.
bool written_in_place(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return false;
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) return true;
    if (S_ISDIR(info.st_mode)) throw std::runtime_error("it is a directory");
    if (!S_ISREG(info.st_mode)) throw std::runtime_error("it is not a regular file, a FIFO or a character device");
    return false;
}

// The pid in a temporary's name ".<name>.pinscope-<pid>-XXXXXX", or 0 when it is not one.
pid_t owner_of_temporary(const std::string& name) {
    if (name.empty() || name[0] != '.') return 0;
    const std::size_t tag = name.rfind(kTempTag);
    if (tag == std::string::npos) return 0;
    const char* digits = name.data() + tag + std::strlen(kTempTag);
    const char* end = name.data() + name.size();
    pid_t pid = 0;
    const auto [rest, error] = std::from_chars(digits, end, pid);
    if (error != std::errc() || rest == digits || pid <= 0) return 0;
    return end - rest == 7 && *rest == '-' ? pid : 0;  // "-XXXXXX"
}

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// A new temporary for `target` in its folder, made after clearing that folder of stale ones.
std::pair<std::string, int> make_temporary(const std::string& directory, const std::string& name) {
    remove_stale_temporaries(directory);
    std::string temp = (std::filesystem::path(directory) /
                        ("." + name + kTempTag + std::to_string(::getpid()) + "-XXXXXX")).string();
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0) fail_errno("cannot create a temporary file");
    return {temp, fd};
}

}  // namespace

class OutputFile::Impl {
public:
    Impl(const std::string& path) {
        int fd = -1;
        if (const auto inherited = descriptor_named(path)) {
            std::fflush(nullptr);  // what was printed before comes first
            fd = ::fcntl(*inherited, F_DUPFD_CLOEXEC, 0);
            if (fd < 0) fail_errno("cannot use that descriptor");
        } else if (written_in_place(path)) {
            fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
            if (fd < 0) fail_errno("cannot open");
        } else {
            target_ = final_target(path);
            mode_ = mode_for(target_);
            std::tie(temp_, fd) = make_temporary(directory_of(target_),
                                                 std::filesystem::path(target_).filename().string());
        }
        file_ = ::fdopen(fd, "w");
        if (file_ == nullptr) {
            const int error = errno;
            ::close(fd);
            remove_temporary();
            throw std::runtime_error(errno_text(error));
        }
        std::setvbuf(file_, nullptr, _IOFBF, kBufferBytes);
        buffer_ = std::make_unique<FileStreamBuf>(file_);
        stream_ = std::make_unique<std::ostream>(buffer_.get());
    }
    ~Impl() {
        if (file_ != nullptr) std::fclose(file_);
        if (!renamed_) remove_temporary();
    }

    bool is_stream() const { return temp_.empty(); }
    std::ostream& stream() { return *stream_; }

    void finish_writing() {
        if (file_ == nullptr) return;
        stream_->flush();
        if (buffer_->error() != 0) throw std::runtime_error("write failed: " + errno_text(buffer_->error()));
        if (!*stream_) throw std::runtime_error("write failed");
        if (std::fflush(file_) != 0) fail_errno("write failed");
        if (!is_stream()) {
            written_in_place(target_);  // still replaceable: a directory put there since is refused now
            if (::fchmod(::fileno(file_), mode_) != 0) fail_errno("cannot set permissions");
            if (::fsync(::fileno(file_)) != 0) fail_errno("sync failed");
        }
        const int closed = std::fclose(file_);
        file_ = nullptr;
        if (closed != 0) fail_errno("write failed");
    }

    void replace_target() {
        if (is_stream() || renamed_) return;
        if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail_errno("rename failed");
        renamed_ = true;
    }

    std::string target_directory() const { return directory_of(target_); }

private:
    void remove_temporary() {
        if (!temp_.empty()) ::unlink(temp_.c_str());
    }

    std::string target_;
    std::string temp_;  // empty for a stream
    mode_t mode_ = 0;
    std::FILE* file_ = nullptr;
    std::unique_ptr<FileStreamBuf> buffer_;
    std::unique_ptr<std::ostream> stream_;
    bool renamed_ = false;
};

namespace {

template <typename Action>
auto naming(const std::string& path, Action&& action) {
    try {
        return action();
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot write " + path + ": " + error.what());
    } catch (...) {
        throw std::runtime_error("cannot write " + path + ": unknown error");
    }
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    impl_ = naming(path_, [&] { return std::make_unique<Impl>(path_); });
}

OutputFile::~OutputFile() = default;

bool OutputFile::is_stream() const { return impl_->is_stream(); }
std::ostream& OutputFile::stream() { return impl_->stream(); }
void OutputFile::finish_writing() { naming(path_, [&] { impl_->finish_writing(); }); }
void OutputFile::replace_target() {
    naming(path_, [&] { impl_->replace_target(); });
    if (!is_stream()) sync_directory(impl_->target_directory());
}

void commit_together(const std::vector<OutputFile*>& files) {
    for (OutputFile* file : files) file->finish_writing();
    for (OutputFile* file : files) file->replace_target();
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    OutputFile file(path);
    naming(path, [&] { write(file.stream()); });
    file.commit();
}

// Written through (at the descriptor's own offset), never opened afresh or replaced, whatever it
// is (a pipe, a terminal, or a file the shell redirected to).
std::optional<int> descriptor_named(const std::string& path) {
    if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
    if (path == "/dev/stderr") return STDERR_FILENO;
    for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (path.rfind(prefix, 0) != 0) continue;
        int fd = -1;
        const char* end = path.data() + path.size();
        const auto [rest, error] = std::from_chars(path.data() + prefix.size(), end, fd);
        if (error == std::errc() && rest == end && fd >= 0) return fd;
    }
    return std::nullopt;
}

ScratchFile open_scratch_file(const std::string& directory) {
    return naming(directory, [&] {
        auto [name, fd] = make_temporary(directory, "scratch");
        ::unlink(name.c_str());
        ScratchFile file(::fdopen(fd, "w+"));
        if (!file) {
            const int error = errno;
            ::close(fd);
            throw std::runtime_error(errno_text(error));
        }
        return file;
    });
}

void remove_stale_temporaries(const std::string& directory) {
    DIR* dir = ::opendir(directory.c_str());
    if (dir == nullptr) return;
    std::set<pid_t> alive;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        const pid_t pid = owner_of_temporary(name);
        if (pid == 0 || pid == ::getpid() || alive.count(pid) != 0) continue;
        if (!process_gone(pid)) {
            alive.insert(pid);
            continue;
        }
        // Only regular files of this user: never what someone else put there under such a name.
        struct stat info {};
        if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISREG(info.st_mode) && info.st_uid == ::geteuid()) ::unlinkat(::dirfd(dir), entry->d_name, 0);
    }
    ::closedir(dir);
}

std::string scratch_directory_for(const std::string& path) {
    struct stat info {};
    const bool stream = descriptor_named(path) || (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode));
    if (!stream) return directory_of(final_target(path));
    std::error_code error;
    const std::filesystem::path temp = std::filesystem::temp_directory_path(error);
    return error ? std::string("/tmp") : temp.string();
}

}  // namespace pinscope
