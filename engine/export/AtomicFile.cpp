#include "export/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <streambuf>

namespace pinscope {

namespace {

std::string errno_text(int error) { return std::strerror(error); }

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
        const std::size_t written = std::fwrite(data, 1, static_cast<std::size_t>(count), file_);
        if (written != static_cast<std::size_t>(count) && error_ == 0) error_ = errno != 0 ? errno : EIO;
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

// The temporary next to the target; removed unless committed.
class TempFile {
public:
    explicit TempFile(const std::string& target) {
        const std::filesystem::path target_path(target);
        name_ = (std::filesystem::path(directory_of(target)) /
                 ("." + target_path.filename().string() + ".tmp.XXXXXX")).string();
        const int fd = ::mkstemp(name_.data());
        if (fd < 0) throw std::runtime_error(errno_text(errno));
        file_ = ::fdopen(fd, "w");
        if (file_ == nullptr) {
            const int error = errno;
            ::close(fd);
            ::unlink(name_.c_str());
            throw std::runtime_error(errno_text(error));
        }
    }
    ~TempFile() {
        if (file_ != nullptr) std::fclose(file_);
        if (!committed_) ::unlink(name_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    std::FILE* file() const { return file_; }

    // Flushes to disk, closes and renames over the target; throws the reason on failure.
    void commit(const std::string& target, mode_t mode) {
        if (std::fflush(file_) != 0) fail("write failed");
        if (::fchmod(::fileno(file_), mode) != 0) fail("cannot set permissions");
        if (::fsync(::fileno(file_)) != 0) fail("sync failed");
        const int closed = std::fclose(file_);
        file_ = nullptr;
        if (closed != 0) fail("write failed");
        if (std::rename(name_.c_str(), target.c_str()) != 0) fail("rename failed");
        committed_ = true;
        sync_directory(directory_of(target));
    }

private:
    [[noreturn]] static void fail(const char* what) {
        const int error = errno;
        throw std::runtime_error(std::string(what) + ": " + errno_text(error));
    }

    std::string name_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
};

void write_through_temp(const std::string& path, const std::function<void(std::ostream&)>& write) {
    TempFile temp(path);
    FileStreamBuf buffer(temp.file());
    std::ostream stream(&buffer);
    write(stream);
    stream.flush();
    if (buffer.error() != 0) throw std::runtime_error("write failed: " + errno_text(buffer.error()));
    if (!stream) throw std::runtime_error("write failed");
    temp.commit(path, mode_for(path));
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    try {
        write_through_temp(path, write);
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot write " + path + ": " + error.what());
    } catch (...) {
        throw std::runtime_error("cannot write " + path + ": unknown error");
    }
}

}  // namespace pinscope
