// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/RunExports.h"
#include "engine/export/SegmentsCsv.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "engine/export/ChromeTrace.h"
#include "engine/export/CountersCsv.h"
#include "engine/export/ExportFormat.h"
#include "engine/export/NumaCsv.h"
#include "engine/export/SpansCsv.h"
#include "engine/export/SummaryJson.h"
#include "engine/files/AtomicFile.h"

namespace pinscope {

namespace {

void create_directory(const std::string& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) throw std::runtime_error("cannot create directory " + dir + ": " + error.message());
}

void write_summary(std::ostream& out, const RunSummary& summary) {
    out << json_text(summary_to_json(summary), 2) << '\n';
}

// Runs `work` for `file`, naming the file in what it throws.
template <typename Work>
void for_file(const OutputFile& file, Work&& work) {
    try {
        work();
    } catch (const std::exception& error) {
        const std::string what = error.what();
        if (what.rfind("cannot ", 0) == 0) throw;
        throw std::runtime_error("cannot write " + file.path() + ": " + what);
    }
}

std::unique_ptr<OutputFile> open_if(const std::string& path) {
    return path.empty() ? nullptr : std::make_unique<OutputFile>(path);
}

std::string in_dir(const std::string& dir, const char* name) { return (std::filesystem::path(dir) / name).string(); }

}  // namespace

// The open outputs and, once the run has begun, the writer of each.
class RunFileExports::Writers {
public:
    explicit Writers(const ExportPaths& paths) {
        if (!paths.csv_dir.empty()) {
            create_directory(paths.csv_dir);
            spans_file = open_if(in_dir(paths.csv_dir, "spans.csv"));
            counters_file = open_if(in_dir(paths.csv_dir, "counters.csv"));
            numa_file = open_if(in_dir(paths.csv_dir, "numa.csv"));
            csv_summary_file = open_if(in_dir(paths.csv_dir, "summary.json"));
            segments_file = open_if(in_dir(paths.csv_dir, "segments.csv"));
        }
        trace_file = open_if(paths.trace_path);
        summary_file = open_if(paths.summary_path);
    }

    void begin(TimeNs origin) {
        if (spans_file) {
            for_file(*spans_file, [&] { spans.emplace(spans_file->stream(), origin); });
            for_file(*counters_file, [&] { counters.emplace(counters_file->stream(), origin); });
            for_file(*numa_file, [&] { numa.emplace(numa_file->stream(), origin, scratch_directory_for(numa_file->path())); });
        }
        if (trace_file)
            for_file(*trace_file, [&] { trace.emplace(trace_file->stream(), origin, scratch_directory_for(trace_file->path())); });
    }

    void record(const std::vector<Span>& span_list, const std::vector<CounterSample>& counter_list,
                const std::vector<Marker>& markers) {
        if (spans) spans->add(span_list);
        if (counters) counters->add(counter_list);
        if (trace) trace->add(span_list, counter_list, markers);
    }

    void record(const NumaSample& sample) {
        if (numa) numa->add(sample);
    }

    void finish(const RunSummary& summary) {
        if (spans) for_file(*spans_file, [&] { spans->finish(); });
        if (counters) for_file(*counters_file, [&] { counters->finish(); });
        if (numa) for_file(*numa_file, [&] { numa->finish(); });
        if (csv_summary_file) for_file(*csv_summary_file, [&] { write_summary(csv_summary_file->stream(), summary); });
        if (segments_file) for_file(*segments_file, [&] { write_segments_csv(segments_file->stream(), summary); });
        if (trace) for_file(*trace_file, [&] { trace->finish(summary); });
        if (summary_file) for_file(*summary_file, [&] { write_summary(summary_file->stream(), summary); });
        std::vector<OutputFile*> files;
        for (auto* file : {&spans_file, &counters_file, &numa_file, &csv_summary_file, &segments_file, &trace_file, &summary_file})
            if (*file) files.push_back(file->get());
        commit_together(files);
    }

    std::unique_ptr<OutputFile> spans_file, counters_file, numa_file, csv_summary_file, segments_file, trace_file, summary_file;
    std::optional<SpansCsvWriter> spans;
    std::optional<CountersCsvWriter> counters;
    std::optional<NumaCsvWriter> numa;
    std::optional<ChromeTraceWriter> trace;
    std::string error;  // the first failure while the run went; finish() throws it
};

RunFileExports::RunFileExports(const ExportPaths& paths) : writers_(std::make_unique<Writers>(paths)) {}

RunFileExports::~RunFileExports() = default;

// A failure while the run goes stops the writing; finish() reports it, and the targets stay.
void RunFileExports::begin(const RunStart& start) {
    try {
        writers_->begin(start.origin);
    } catch (const std::exception& e) {
        writers_->error = e.what();
    }
}

void RunFileExports::record(const TraceDelta& delta) { record(delta.spans, delta.counters, delta.markers); }

void RunFileExports::record(const std::vector<Span>& spans, const std::vector<CounterSample>& counters,
                            const std::vector<Marker>& markers) {
    if (finished_ || !writers_->error.empty()) return;
    try {
        writers_->record(spans, counters, markers);
    } catch (const std::exception& e) {
        writers_->error = std::string("cannot write the exports: ") + e.what();
    }
}

void RunFileExports::record(const NumaSample& sample) {
    if (finished_ || !writers_->error.empty()) return;
    try {
        writers_->record(sample);
    } catch (const std::exception& e) {
        writers_->error = std::string("cannot write the exports: ") + e.what();
    }
}

void RunFileExports::finish(const RunSummary& summary) {
    if (finished_) return;
    finished_ = true;
    if (!writers_->error.empty()) throw std::runtime_error(writers_->error);
    writers_->finish(summary);
}

void export_csv_dir(const std::string& dir, const RunRecord& record) {
    RunFileExports exports({dir, "", ""});
    exports.begin({record.origin});
    exports.record(record.spans, record.counters, record.markers);
    for (const NumaSample& sample : record.numa_samples) exports.record(sample);
    exports.finish(record.summary);
}

void export_summary_json(const std::string& path, const RunSummary& summary) {
    write_file_atomically(path, [&](std::ostream& out) { write_summary(out, summary); });
}

void export_chrome_trace(const std::string& path, const RunRecord& record) {
    RunFileExports exports({"", path, ""});
    exports.begin({record.origin});
    exports.record(record.spans, record.counters, record.markers);
    exports.finish(record.summary);
}

}  // namespace pinscope
