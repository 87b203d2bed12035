// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A recording's rows read into the engine's types, for RecordingReader and RecordedRunSource.
// Every value read is checked: a code without a name, a summary that does not parse, a time out
// of order is a damaged file (RecordingError naming it), never a crash.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/compare/RunComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/SqliteDatabase.h"
#include "engine/topology/MachineTopology.h"

namespace pinscope {

// One row of the runs table.
struct RunRow {
    RecordedRunInfo info;
    RunSummary start_summary;                 // what the run began with; no figures
    std::optional<RunSummary> final_summary;  // finished runs
    std::optional<std::string> topology_xml;
    TimeNs data_end = 0;  // from the origin: the last thing recorded, or the run's end when finished
    // In time order, on the run's clock; a run that did not finish has its segments' figures at 0.
    std::vector<RunSegment> segments;
};

class RecordingTables {
public:
    RecordingTables(std::shared_ptr<SqliteDatabase> db, std::string path);

    const std::string& path() const { return path_; }
    std::vector<std::int64_t> run_ids();
    // Throws RecordingError when there is no such run.
    RunRow run(std::int64_t id);
    // The run's topology from its stored XML, as the run saw it (its source, whether loaded from a
    // file); null when none was stored. Throws RecordingError when the XML does not load.
    std::shared_ptr<const MachineTopology> topology(const RunRow& row);

    // Rows of run `id`, times put back on the run's clock (`origin` + stored).
    std::vector<Span> spans_in_recorded_order(std::int64_t id, TimeNs origin);
    // Spans after (end, seq) `after` whose end is at most `until`, by end time, at most `limit`.
    struct SpanCursor {
        TimeNs end = -1;
        std::int64_t row = -1;  // seq: the span's place in the recorded order
    };
    std::vector<Span> spans_by_end(std::int64_t id, TimeNs origin, SpanCursor& after, TimeNs until, std::size_t limit);
    // Each span's stage and duration, in the table's order: what a comparison needs of them, read
    // without building the spans or putting them back in the order recorded.
    void add_span_durations(std::int64_t id, StageDurationSamples& samples);
    // Times from the origin in (from, to].
    std::vector<CounterSample> counters(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to);
    std::vector<Marker> markers(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to);
    std::vector<NumaSample> numa_samples(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to);
    // The newest sample at or before `at` (from the origin); none when there is none yet.
    std::optional<NumaSample> numa_sample_at(std::int64_t id, TimeNs origin, TimeNs at);

    // Runs `read` turning SQLite's failures into RecordingError naming the file.
    template <typename Read>
    auto guarded(Read&& read) -> decltype(read()) {
        try {
            return read();
        } catch (const SqliteError& error) {
            throw_for(error);
        }
    }
    [[noreturn]] void throw_for(const SqliteError& error) const;
    [[noreturn]] void damaged(const std::string& what) const;

private:
    std::vector<RunSegment> segments_of(const RunRow& row);
    template <typename Enum>
    std::map<std::int64_t, Enum> codes(const char* table, int count);
    Span span_of(const SqliteStatement& row, int first_column, TimeNs origin) const;

    std::shared_ptr<SqliteDatabase> db_;
    std::string path_;
    std::string name_;  // the path, printable
    std::int64_t version_ = 0;  // the file's format version
    std::map<std::int64_t, Stage> stages_;
    std::map<std::int64_t, LaneKind> lanes_;
    std::map<std::int64_t, Counter> counters_;
    std::map<std::int64_t, MarkerKind> marker_kinds_;
};

// The warning an unfinished run's summary carries: where the recording stops.
std::string unfinished_warning(const RunRow& row);

// The run's figures over the spans recorded, for a run that did not finish: from its origin to
// `data_end`.
Metrics metrics_of_recorded(const std::vector<Span>& spans, TimeNs origin, TimeNs data_end, std::uint32_t batch_size);
// The segments of such a run (row.segments: where each begins, its configuration) with their
// figures over what was recorded; pool counts, which only the finished summary has, stay 0.
std::vector<RunSegment> segments_of_recorded(const RunRow& row, const std::vector<Span>& spans,
                                             const std::vector<CounterSample>& counters);

}  // namespace pinscope
