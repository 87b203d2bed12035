// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run streamed into a recording database while it runs (pinscope-cli run --record). The run's
// row is written at begin (configuration, device, topology), its spans, counters, markers and
// NUMA samples as the observer drains them, in transactions committed every kCommitPeriod, and
// its summary and each segment's figures at finish (each segment's row is written as it
// begins). A process killed at any moment leaves a file that opens, holding the
// run up to its last commit, unfinished. One writer records any number of runs, one after the
// other, each its own row; an existing recording gets them appended.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/runner/RunRecorder.h"

namespace pinscope {

class SqliteDatabase;
class SqliteStatement;
struct Span;

class RecordingWriter : public RunRecorder {
public:
    static constexpr std::chrono::milliseconds kCommitPeriod{250};

    // Opens `path`, creating it as an empty recording when it does not exist. A file that exists
    // must be a recording of this format: anything else (not SQLite, another database, an empty
    // file, another format version) is refused with RecordingError and left as it was. Throws
    // std::runtime_error when the file cannot be created or written.
    explicit RecordingWriter(const std::string& path);
    ~RecordingWriter() override;  // commits what is pending; a run not finished stays unfinished
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    void begin(const RunStart& start) override;
    void record(const TraceDelta& delta) override;
    void record(const NumaSample& sample) override;
    void begin_segment(const RunSegment& segment) override;
    // Writes the summary and commits; throws std::runtime_error naming the file when anything
    // of the run could not be written.
    void finish(const RunSummary& summary) override;

    const std::string& path() const { return path_; }
    // The number of the run begun last (its row id); 0 before the first.
    std::int64_t run_id() const;

    struct Statements;

private:
    // Each under the lock.
    void insert(const TraceDelta& delta);
    void bind_span(SqliteStatement& statement, int first, const Span& span);
    void write_segment(const RunSegment& segment, bool figures);
    void commit_if_due();
    void commit();
    void fail(const std::exception& error);

    std::string path_;
    mutable std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
    std::unique_ptr<Statements> statements_;
    std::int64_t run_id_ = 0;
    std::int64_t next_seq_ = 0;  // the next span's place in the run's recorded order
    TimeNs origin_ = 0;
    bool recording_ = false;  // between begin and finish, while nothing has failed
    bool in_transaction_ = false;
    std::chrono::steady_clock::time_point last_commit_;
    std::optional<std::string> failure_;  // the first write that failed in this run
};

}  // namespace pinscope
