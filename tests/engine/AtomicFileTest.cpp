// SPDX-License-Identifier: GPL-3.0-or-later
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "engine/files/AtomicFile.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using test::file_names;
using test::read_text;
using test::TempDir;
using test::thrown_message;

void write_text(const std::string& path, const std::string& text) {
    write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

mode_t permissions(const std::string& path) {
    struct stat info {};
    EXPECT_EQ(::stat(path.c_str(), &info), 0);
    return info.st_mode & 07777;
}

TEST(AtomicFile, WritesTheWholeContentAndLeavesNothingElse) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    write_text(path, "a,b\n1,2\n");
    EXPECT_EQ(read_text(path), "a,b\n1,2\n");
    EXPECT_EQ(file_names(dir.path()), std::set<std::string>{"out.csv"});
}

TEST(AtomicFile, ReplacesAnExistingFile) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    write_text(path, "a much longer old content\n");
    write_text(path, "new\n");
    EXPECT_EQ(read_text(path), "new\n");
    EXPECT_EQ(file_names(dir.path()), std::set<std::string>{"out.csv"});
}

TEST(AtomicFile, WriterThrowingMidwayKeepsThePreviousFileAndLeavesNoTemporary) {
    TempDir dir;
    const std::string path = dir.file("summary.json");
    write_text(path, "previous\n");
    const std::string message = thrown_message([&] {
        write_file_atomically(path, [](std::ostream& out) {
            out << std::string(1 << 20, 'x');  // more than any buffer: part of it reaches the disk
            throw std::runtime_error("exporter failed");
        });
    });
    EXPECT_NE(message.find("cannot write " + path), std::string::npos) << message;
    EXPECT_NE(message.find("exporter failed"), std::string::npos) << message;
    EXPECT_EQ(read_text(path), "previous\n");
    EXPECT_EQ(file_names(dir.path()), std::set<std::string>{"summary.json"});
}

TEST(AtomicFile, WriterThrowingANonStandardExceptionStillFailsCleanly) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    EXPECT_THROW(write_file_atomically(path, [](std::ostream&) { throw 42; }), std::runtime_error);
    EXPECT_TRUE(file_names(dir.path()).empty());
}

TEST(AtomicFile, FailedStreamIsAnErrorAndCreatesNothing) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    const std::string message = thrown_message([&] {
        write_file_atomically(path, [](std::ostream& out) {
            out << "partial";
            out.setstate(std::ios::badbit);
        });
    });
    EXPECT_NE(message.find("cannot write " + path), std::string::npos) << message;
    EXPECT_TRUE(file_names(dir.path()).empty());
}

TEST(AtomicFile, MissingDirectoryThrowsWithThePathAndCreatesNothing) {
    TempDir dir;
    const std::string path = dir.file("missing/out.csv");
    bool called = false;
    const std::string message = thrown_message([&] {
        write_file_atomically(path, [&](std::ostream&) { called = true; });
    });
    EXPECT_NE(message.find("cannot write " + path + ": "), std::string::npos) << message;
    EXPECT_FALSE(called);
    EXPECT_TRUE(file_names(dir.path()).empty());
}

TEST(AtomicFile, NewFileGetsTheUmaskPermissionsAndAReplacedOneKeepsItsOwn) {
    TempDir dir;
    const mode_t mask = ::umask(022);
    ::umask(mask);
    const std::string fresh = dir.file("fresh.csv");
    write_text(fresh, "x");
    EXPECT_EQ(permissions(fresh), 0666 & ~mask);

    const std::string kept = dir.file("kept.csv");
    write_text(kept, "x");
    ASSERT_EQ(::chmod(kept.c_str(), 0640), 0);
    write_text(kept, "y");
    EXPECT_EQ(permissions(kept), 0640u);
}

TEST(AtomicFile, PathWithoutDirectoryWritesIntoTheWorkingDirectory) {
    TempDir dir;
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    write_text("plain.csv", "x\n");
    std::filesystem::current_path(previous);
    EXPECT_EQ(read_text(dir.path() / "plain.csv"), "x\n");
}

TEST(AtomicFile, SymlinkIsFollowedItsTargetReplacedAndTheLinkKept) {
    TempDir dir;
    const std::string target = dir.file("real.json");
    const std::string link = dir.file("link.json");
    write_text(target, "old\n");
    std::filesystem::create_symlink("real.json", link);
    write_text(link, "new\n");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(std::filesystem::read_symlink(link), "real.json");
    EXPECT_EQ(read_text(target), "new\n");
    EXPECT_EQ(file_names(dir.path()), (std::set<std::string>{"link.json", "real.json"}));
}

TEST(AtomicFile, DanglingSymlinkGetsItsTargetCreated) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "elsewhere");
    const std::string link = dir.file("link.csv");
    std::filesystem::create_symlink(dir.path() / "elsewhere" / "out.csv", link);
    write_text(link, "x\n");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(read_text(dir.path() / "elsewhere" / "out.csv"), "x\n");
}

TEST(AtomicFile, FifoIsWrittenAsAStreamAndStaysAFifo) {
    TempDir dir;
    const std::string fifo = dir.file("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = read_text(fifo); });  // opening blocks until the writer opens
    write_text(fifo, std::string(200000, 'y') + "\n");
    reader.join();
    EXPECT_EQ(received, std::string(200000, 'y') + "\n");
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
    EXPECT_EQ(file_names(dir.path()), std::set<std::string>{"pipe"});
}

TEST(AtomicFile, DevFullReportsTheWriteError) {
    const std::string message = thrown_message([] { write_text("/dev/full", std::string(4096, 'z')); });
    EXPECT_NE(message.find("cannot write /dev/full: "), std::string::npos) << message;
    EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
}

TEST(AtomicFile, DevNullIsWrittenInPlaceNotReplaced) {
    write_text("/dev/null", "gone\n");
    struct stat info {};
    ASSERT_EQ(::lstat("/dev/null", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
}

TEST(AtomicFile, DashGoesToStandardOutput) {
    testing::internal::CaptureStdout();
    write_text("-", "to stdout\n");
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "to stdout\n");
}

TEST(AtomicFile, DevStdoutWritesThroughTheDescriptorEvenWhenItIsAFile) {
    testing::internal::CaptureStdout();  // standard output is now a regular file
    std::cout << "before\n" << std::flush;
    write_text("/dev/stdout", "json\n");
    std::cout << "after\n" << std::flush;
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "before\njson\nafter\n");
}

TEST(AtomicFile, DirectoryAtThePathIsRefused) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "out.csv");
    const std::string message = thrown_message([&] { write_text(dir.file("out.csv"), "x"); });
    EXPECT_NE(message.find("it is a directory"), std::string::npos) << message;
}

TEST(AtomicFile, TemporaryNamesItsProcess) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    std::set<std::string> during;
    write_file_atomically(path, [&](std::ostream&) { during = file_names(dir.path()); });
    ASSERT_EQ(during.size(), 1u);
    EXPECT_EQ(during.begin()->rfind(".out.csv.pinscope-" + std::to_string(::getpid()) + "-", 0), 0u) << *during.begin();
}

// The pid of a process that has ended (and been reaped).
pid_t ended_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

TEST(AtomicFile, StaleTemporariesOfAnEndedProcessGoButThoseOfALiveOneStay) {
    TempDir dir;
    const std::string dead = ".spans.csv.pinscope-" + std::to_string(ended_pid()) + "-AbC123";
    const std::string alive = ".trace.json.pinscope-" + std::to_string(::getppid()) + "-XyZ789";
    const std::string foreign = ".notes.txt.tmp.123456";  // not ours: never touched
    for (const auto& name : {dead, alive, foreign}) std::ofstream(dir.file(name)) << "partial";
    write_text(dir.file("summary.json"), "{}\n");
    EXPECT_EQ(file_names(dir.path()), (std::set<std::string>{alive, foreign, "summary.json"}));
}

TEST(AtomicFile, SetIsReplacedOnlyWhenEveryFileIsWritten) {
    TempDir dir;
    write_text(dir.file("a.csv"), "old a\n");
    {
        OutputFile a(dir.file("a.csv"));
        OutputFile full("/dev/full");
        a.stream() << "new a\n";
        full.stream() << std::string(8192, 'x');
        EXPECT_THROW(commit_together({&a, &full}), std::runtime_error);
    }
    EXPECT_EQ(read_text(dir.path() / "a.csv"), "old a\n");
    EXPECT_EQ(file_names(dir.path()), std::set<std::string>{"a.csv"});
}

TEST(AtomicFile, ScratchFileHasNoNameOnDisk) {
    TempDir dir;
    ScratchFile scratch = open_scratch_file(dir.path().string());
    ASSERT_NE(scratch, nullptr);
    ASSERT_GE(std::fputs("kept", scratch.get()), 0);
    ASSERT_EQ(std::fflush(scratch.get()), 0);
    std::rewind(scratch.get());
    char back[5]{};
    EXPECT_EQ(std::fread(back, 1, 4, scratch.get()), 4u);
    EXPECT_STREQ(back, "kept");
    EXPECT_TRUE(file_names(dir.path()).empty());
}

}  // namespace
}  // namespace pinscope
