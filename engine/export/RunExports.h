#pragma once
// Export files of a run, each written whole or not at all (write_file_atomically).
#include <string>

#include "runner/RunRecord.h"

namespace pinscope {

// Creates `dir` if missing and writes spans.csv, counters.csv, numa.csv and summary.json into it.
// Throws std::runtime_error naming the directory or file that could not be written.
void export_csv_dir(const std::string& dir, const RunRecord& record);
// summary.json: pretty-printed with 2 spaces.
void export_summary_json(const std::string& path, const RunSummary& summary);
void export_chrome_trace(const std::string& path, const RunRecord& record);

}  // namespace pinscope
