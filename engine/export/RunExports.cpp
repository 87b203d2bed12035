#include "export/RunExports.h"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "export/AtomicFile.h"
#include "export/ChromeTrace.h"
#include "export/CountersCsv.h"
#include "export/ExportFormat.h"
#include "export/NumaCsv.h"
#include "export/SpansCsv.h"
#include "export/SummaryJson.h"

namespace pinscope {

namespace {

void create_directory(const std::string& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) throw std::runtime_error("cannot create directory " + dir + ": " + error.message());
}

}  // namespace

void export_csv_dir(const std::string& dir, const RunRecord& record) {
    create_directory(dir);
    const std::filesystem::path base(dir);
    write_file_atomically((base / "spans.csv").string(),
                          [&](std::ostream& out) { write_spans_csv(out, record.spans, record.origin); });
    write_file_atomically((base / "counters.csv").string(),
                          [&](std::ostream& out) { write_counters_csv(out, record.counters, record.origin); });
    write_file_atomically((base / "numa.csv").string(),
                          [&](std::ostream& out) { write_numa_csv(out, record.numa_samples, record.origin); });
    export_summary_json((base / "summary.json").string(), record.summary);
}

void export_summary_json(const std::string& path, const RunSummary& summary) {
    write_file_atomically(path, [&](std::ostream& out) {
        out << json_text(summary_to_json(summary), 2) << '\n';
    });
}

void export_chrome_trace(const std::string& path, const RunRecord& record) {
    write_file_atomically(path, [&](std::ostream& out) { write_chrome_trace(out, record); });
}

}  // namespace pinscope
