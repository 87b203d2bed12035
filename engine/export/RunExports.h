// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Export files of a run, each written whole or not at all (OutputFile): streamed to disk while the
// run goes (RunFileExports), or from a record already in memory (the window's bounded stores).
#include <memory>
#include <string>

#include "engine/runner/RunRecord.h"
#include "engine/runner/RunRecorder.h"

namespace pinscope {

struct ExportPaths {
    std::string csv_dir;       // spans.csv, counters.csv, numa.csv, segments.csv and summary.json; "" for none
    std::string trace_path;    // Chrome trace JSON; "" for none
    std::string summary_path;  // summary.json; "" for none
};

// Writes the exports as the run goes, into temporaries (or streams), holding only what must still
// be put in order; finish() writes the summaries and replaces every target together, so a
// failure leaves the old files, a --csv folder as one set. Destroyed unfinished, it leaves the
// targets as they were.
class RunFileExports : public RunRecorder {
public:
    // Creates the CSV folder if missing and opens every output; throws std::runtime_error naming
    // the path that cannot be written.
    explicit RunFileExports(const ExportPaths& paths);
    ~RunFileExports() override;

    void begin(const RunStart& start) override;
    void record(const TraceDelta& delta) override;
    void record(const NumaSample& sample) override;
    void finish(const RunSummary& summary) override;
    // The same for what is already in memory, without copying it into a TraceDelta.
    void record(const std::vector<Span>& spans, const std::vector<CounterSample>& counters,
                const std::vector<Marker>& markers);

    class Writers;

private:
    std::unique_ptr<Writers> writers_;
    bool finished_ = false;
};

// Creates `dir` if missing and writes spans.csv, counters.csv, numa.csv, segments.csv and summary.json into it
// as one set. Throws std::runtime_error naming the directory or file that could not be written.
void export_csv_dir(const std::string& dir, const RunRecord& record);
// summary.json: pretty-printed with 2 spaces.
void export_summary_json(const std::string& path, const RunSummary& summary);
void export_chrome_trace(const std::string& path, const RunRecord& record);

}  // namespace pinscope
