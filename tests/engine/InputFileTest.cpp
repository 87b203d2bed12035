// SPDX-License-Identifier: GPL-3.0-or-later
// Files the user names are read only when they are regular files within a size cap: a FIFO, a
// device or a folder is refused at once with what it is, never waited on or read without end.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>

#include "engine/files/InputFile.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

std::string refusal(const std::string& path, std::uint64_t max_bytes = 1 << 20) {
    try {
        read_input_file(path, max_bytes);
    } catch (const InputFileError& error) {
        return error.what();
    }
    return "read";
}

TEST(InputFile, ARegularFileIsReadWhole) {
    const test::TempDir dir;
    std::ofstream(dir.file("a.json"), std::ios::binary) << "{\"x\": 1}";
    EXPECT_EQ(read_input_file(dir.file("a.json"), 100), "{\"x\": 1}");
}

TEST(InputFile, AFifoIsRefusedWithoutWaitingForAWriter) {
    const test::TempDir dir;
    ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
    EXPECT_EQ(refusal(dir.file("fifo")), "it is a FIFO; only a regular file of at most 1 MiB is read");
}

TEST(InputFile, DevicesAndFoldersAreRefused) {
    const test::TempDir dir;
    EXPECT_NE(refusal("/dev/zero").find("it is a character device"), std::string::npos);
    EXPECT_NE(refusal(dir.path().string()).find("it is a folder"), std::string::npos);
}

TEST(InputFile, AFileAboveTheCapIsRefusedBySize) {
    const test::TempDir dir;
    const std::string path = dir.file("big");
    std::ofstream(path) << "x";
    ASSERT_EQ(::truncate(path.c_str(), 3 << 20), 0);
    EXPECT_NE(refusal(path).find("it holds 3 MiB; only a regular file of at most 1 MiB"), std::string::npos)
        << refusal(path);
    EXPECT_EQ(read_input_file(path, 4 << 20).size(), std::size_t{3} << 20);
}

TEST(InputFile, AMissingFileSaysSo) {
    EXPECT_NE(refusal("/nonexistent/x.json").find("cannot read it: No such file"), std::string::npos);
}

}  // namespace
}  // namespace pinscope
