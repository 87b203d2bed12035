#include <sys/stat.h>

#include <stdexcept>

#include <gtest/gtest.h>

#include "ExportTestData.h"
#include "export/AtomicFile.h"

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

}  // namespace
}  // namespace pinscope
