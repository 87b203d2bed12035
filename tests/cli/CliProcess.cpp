// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/cli/CliProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace pinscope::test {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

struct Pipe {
    int read = -1;
    int write = -1;
    Pipe() {
        std::array<int, 2> fds{};
        if (::pipe(fds.data()) != 0) fail("pipe");
        read = fds[0];
        write = fds[1];
    }
    ~Pipe() {
        if (read >= 0) ::close(read);
        if (write >= 0) ::close(write);
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
};

// Starts PINSCOPE_CLI_PATH with `args`, its standard output and error on `out` and `err`; the
// descriptors in `close` are closed in the child.
pid_t spawn(const std::vector<std::string>& args, int out, int err, const std::vector<int>& close) {
    std::vector<char*> argv;
    std::string program = PINSCOPE_CLI_PATH;
    argv.push_back(program.data());
    std::vector<std::string> copies = args;
    for (std::string& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
    for (const int fd : close) posix_spawn_file_actions_addclose(&actions, fd);
    pid_t pid = 0;
    const int result = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (result != 0) {
        errno = result;
        fail("posix_spawn");
    }
    return pid;
}

// Whether `pid` has a handler for `signal` (SigCgt in /proc/PID/status, a hexadecimal mask).
bool catches(pid_t pid, int signal) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string key;
    while (status >> key) {
        if (key == "SigCgt:") {
            std::string mask;
            status >> mask;
            return (std::stoull(mask, nullptr, 16) >> (signal - 1) & 1u) != 0;
        }
        std::getline(status, key);
    }
    return false;
}

int milliseconds_until(Clock::time_point when) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(left);
}

}  // namespace

pid_t start_cli(const std::vector<std::string>& args) {
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) fail("open /dev/null");
    const pid_t pid = spawn(args, null, null, {});
    ::close(null);
    return pid;
}

CliResult run_cli(const std::vector<std::string>& args, const CliRunOptions& options) {
    Pipe out;
    Pipe err;
    const pid_t pid = spawn(args, out.write, err.write, {out.read, err.read});
    ::close(out.write);
    ::close(err.write);
    out.write = err.write = -1;

    CliResult result;
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline = start + options.timeout;
    // time_point::max() stands for "no interrupt to send".
    Clock::time_point interrupt_at =
        options.interrupt_after ? start + *options.interrupt_after : Clock::time_point::max();

    std::optional<Clock::time_point> interrupted_at;
    std::array<pollfd, 2> fds{{{out.read, POLLIN, 0}, {err.read, POLLIN, 0}}};
    std::array<std::string*, 2> sinks{&result.out, &result.err};
    int open = 2;
    while (open > 0) {
        if (Clock::now() >= deadline) {
            result.timed_out = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (Clock::now() >= interrupt_at) {
            if (catches(pid, options.interrupt_signal)) {
                ::kill(pid, options.interrupt_signal);
                interrupted_at = Clock::now();
                interrupt_at = Clock::time_point::max();
            } else {
                interrupt_at = Clock::now() + std::chrono::milliseconds(5);  // not yet: look again soon
            }
        }
        const int wait_ms = milliseconds_until(std::min(interrupt_at, deadline));
        if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) fail("poll");
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            std::array<char, 4096> buffer{};
            const ssize_t count = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (count > 0) {
                sinks[i]->append(buffer.data(), static_cast<std::size_t>(count));
                if (options.interrupt_on_err && !interrupted_at && interrupt_at == Clock::time_point::max() &&
                    result.err.find(*options.interrupt_on_err) != std::string::npos)
                    interrupt_at = Clock::now();
            } else if (count == 0 || errno != EINTR) {
                fds[i].fd = -1;  // poll ignores negative descriptors
                --open;
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) fail("waitpid");
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (interrupted_at)
        result.exit_after_interrupt =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *interrupted_at);
    return result;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace pinscope::test
