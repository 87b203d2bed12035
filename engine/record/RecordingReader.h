// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a recording: the runs it holds, one run whole as a RunRecord, or one run as a RunSource
// whose frames the window shows as it shows a live run. The file is opened read-only and never
// changed; a file that is being recorded into is read as it stood at each query, without waiting
// on the writer or making it wait.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/compare/RunComparison.h"
#include "engine/runner/RunRecord.h"
#include "engine/runner/RunSource.h"

namespace pinscope {

class SqliteDatabase;

struct RecordedRunInfo {
    std::int64_t id = 0;      // the run's number in the file, from 1
    std::string started_utc;  // "2026-11-25T10:15:30.123Z"
    std::string host_name;
    std::string pinscope_version;
    TimeNs origin = 0;        // time zero on the recording machine's steady clock
    LoaderConfig config;      // at the start
    DeviceInfo device;
    HostMode host = HostMode::Modeled;
    bool finished = false;    // false: the recording stops before the run's end (the process was killed)
    double length_s = 0;      // finished: the run's wall time; else up to the last thing recorded
    std::optional<double> batches_per_s;  // finished runs only
};

struct RecordedRun {
    RecordedRunInfo info;
    // Spans and markers in the order recorded, counters and NUMA samples by time. An unfinished
    // run's summary is the one it started with, its figures computed from the spans recorded.
    RunRecord record;
};

class RecordingReader {
public:
    // Throws RecordingError naming the file and what is wrong when it is not a recording this
    // pinscope reads (missing, a folder or FIFO, empty, not SQLite, truncated, another format
    // version).
    explicit RecordingReader(const std::string& path);
    ~RecordingReader();
    RecordingReader(const RecordingReader&) = delete;
    RecordingReader& operator=(const RecordingReader&) = delete;

    const std::string& path() const { return path_; }
    // Every run, by number. Each of these throws RecordingError when the file turns out damaged.
    std::vector<RecordedRunInfo> runs() const;
    // Throws RecordingError when the file has no run `id`, saying which it has.
    RecordedRunInfo run(std::int64_t id) const;
    RecordedRun load(std::int64_t id) const;
    // load(id).record.summary, reading the spans only when the run did not finish.
    RunSummary summary(std::int64_t id) const;
    // stage_durations(load(id).record.spans), read without loading the spans.
    std::vector<StageDurations> stage_durations(std::int64_t id) const;
    // The run as frames: the first with its configuration, device and topology (loaded from the
    // stored XML), then its spans in chunks by end time, the last marked ended with the final
    // summary. Times are on the recorded run's clock, from its origin.
    std::shared_ptr<RunSource> source(std::int64_t id) const;

private:
    std::string path_;
    std::shared_ptr<SqliteDatabase> db_;
};

}  // namespace pinscope
