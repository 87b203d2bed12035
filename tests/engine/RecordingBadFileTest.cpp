// SPDX-License-Identifier: GPL-3.0-or-later
// A file that is not a recording this pinscope reads is refused with one line naming the file and
// what is wrong, never a crash; reading never changes the file, and a writer never writes over
// something that is not a recording.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/SqliteDatabase.h"
#include "tests/engine/RecordingTestData.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

using test::file_state;

class RecordingBadFileTest : public ::testing::Test {
protected:
    // A sound recording of one run, whole in one file.
    std::string good_recording(const std::string& name) {
        const std::string path = dir_.file(name);
        RecordingWriter writer(path);
        test::record_run(writer, test::synthetic_run(1'000'000'000, 3000));
        return path;
    }
    std::string file_with(const std::string& name, const std::string& bytes) {
        const std::string path = dir_.file(name);
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
    // What reading `path` says, checked to be one line naming the file; and that reading it
    // changed nothing.
    std::string refusal(const std::string& path) {
        const bool regular = std::filesystem::is_regular_file(path);
        const test::FileState before = regular ? file_state(path) : test::FileState{};
        std::string message;
        try {
            const RecordingReader reader(path);
            for (const RecordedRunInfo& run : reader.runs()) reader.load(run.id);
            ADD_FAILURE() << path << " was read";
        } catch (const RecordingError& error) {
            message = error.what();
        }
        EXPECT_NE(message.find(std::filesystem::path(path).filename().string()), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        if (regular) {
            EXPECT_TRUE(file_state(path) == before) << path << " changed";
        }
        return message;
    }
    void set_user_version(const std::string& path, int version) {
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("PRAGMA user_version = " + std::to_string(version));
    }

    test::TempDir dir_;
};

TEST_F(RecordingBadFileTest, FileThatIsNotSqliteIsRefused) {
    EXPECT_NE(refusal(file_with("notes.txt", "hello, not a database\n")).find("not an SQLite database"), std::string::npos);
}

TEST_F(RecordingBadFileTest, EmptyFileIsRefused) {
    EXPECT_NE(refusal(file_with("empty.pinscope", "")).find("empty"), std::string::npos);
}

TEST_F(RecordingBadFileTest, TruncatedFileIsRefused) {
    const std::string whole = file_state(good_recording("whole.pinscope")).bytes;
    const std::string path = file_with("half.pinscope", whole.substr(0, whole.size() / 2));
    EXPECT_NE(refusal(path).find("truncated"), std::string::npos);
    const std::string header_only = file_with("header.pinscope", whole.substr(0, 60));
    EXPECT_NE(refusal(header_only).find("truncated"), std::string::npos);
}

TEST_F(RecordingBadFileTest, OtherSqliteDatabaseIsRefused) {
    const std::string path = dir_.file("other.db");
    {
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("CREATE TABLE runs (id INTEGER); INSERT INTO runs VALUES (1)");
    }
    EXPECT_NE(refusal(path).find("not a pinscope recording"), std::string::npos);
}

TEST_F(RecordingBadFileTest, NewerFormatVersionIsRefusedSayingSo) {
    const std::string path = good_recording("newer.pinscope");
    set_user_version(path, kRecordingFormatVersion + 1);
    const std::string message = refusal(path);
    EXPECT_NE(message.find("newer format (version " + std::to_string(kRecordingFormatVersion + 1)), std::string::npos) << message;
}

TEST_F(RecordingBadFileTest, OlderFormatVersionIsRefusedSayingSo) {
    const std::string path = good_recording("older.pinscope");
    set_user_version(path, 0);
    EXPECT_NE(refusal(path).find("older format (version 0"), std::string::npos);
}

TEST_F(RecordingBadFileTest, MissingRunNumberIsRefusedSayingWhichThereAre) {
    const std::string path = good_recording("one.pinscope");
    const test::FileState before = file_state(path);
    const RecordingReader reader(path);
    const std::string message = test::thrown_message([&] { reader.load(4); });
    EXPECT_NE(message.find("no run 4; it holds run 1"), std::string::npos) << message;
    EXPECT_THROW(reader.source(0), RecordingError);
    EXPECT_TRUE(file_state(path) == before);
}

TEST_F(RecordingBadFileTest, DirectoryFifoAndMissingFileAreRefused) {
    const std::string folder = dir_.file("folder.pinscope");
    std::filesystem::create_directory(folder);
    EXPECT_NE(refusal(folder).find("folder"), std::string::npos);
    const std::string fifo = dir_.file("fifo.pinscope");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(refusal(fifo).find("FIFO"), std::string::npos);  // at once: nothing waits for a writer
    EXPECT_NE(refusal(dir_.file("missing.pinscope")).find("No such file"), std::string::npos);
}

TEST_F(RecordingBadFileTest, DamagedSummaryOrCodeIsRefusedNotCrashedOn) {
    const std::string path = good_recording("damaged.pinscope");
    {
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("UPDATE runs SET summary_json = '{\"config\": 3}'");
    }
    EXPECT_NE(refusal(path).find("damaged"), std::string::npos);
    {
        SqliteDatabase db(path, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("UPDATE runs SET finished = 0; UPDATE spans SET stage = 99 WHERE seq = 5");
    }
    EXPECT_NE(refusal(path).find("damaged"), std::string::npos);
}

TEST_F(RecordingBadFileTest, WriterRefusesWhatIsNotARecordingAndLeavesItAsItWas) {
    const std::string text = file_with("notes.txt", "hello\n");
    const std::string empty = file_with("empty.pinscope", "");
    const std::string other = dir_.file("other.db");
    {
        SqliteDatabase db(other, SqliteDatabase::Mode::ReadWriteCreate);
        db.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    }
    const std::string newer = good_recording("newer.pinscope");
    set_user_version(newer, kRecordingFormatVersion + 1);
    for (const std::string& path : {text, empty, other, newer}) {
        const test::FileState before = file_state(path);
        EXPECT_THROW(RecordingWriter{path}, RecordingError) << path;
        EXPECT_TRUE(file_state(path) == before) << path << " changed";
    }
}

}  // namespace
}  // namespace pinscope
