// SPDX-License-Identifier: GPL-3.0-or-later
// The time to read a recorded run whole: through its RunSource, as the window reads it (every
// frame until the one marked ended), and as a RunRecord, as pinscope-cli export reads it; and the
// time to write made-up spans into a recording, the observer's cost per span. Not a test; its
// figures are in docs/benchmarks.md.
//   pinscope_recording_benchmark FILE [RUN]        read a run (default: the last)
//   pinscope_recording_benchmark --write N FILE    write a run of N spans (appended to FILE)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingWriter.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Spans as the observer drains them: 2000 every 10 ms of the run, on every kind of lane.
int write_spans(std::size_t count, const std::string& path) {
    pinscope::RecordingWriter writer(path);
    pinscope::RunStart start;
    start.origin = 1'000'000'000;
    writer.begin(start);
    constexpr std::size_t kPerDelta = 2000;
    pinscope::TraceDelta delta;
    const auto begin = Clock::now();
    for (std::size_t i = 0; i < count;) {
        delta.clear();
        for (std::size_t k = 0; k < kPerDelta && i < count; ++k, ++i) {
            pinscope::Span span;
            span.lane = {static_cast<pinscope::LaneKind>(i % pinscope::kLaneKindCount), static_cast<std::uint16_t>(i % 4)};
            span.stage = static_cast<pinscope::Stage>(i % pinscope::kStageCount);
            span.batch = i / 8;
            span.start = start.origin + static_cast<pinscope::TimeNs>(i) * 5000;
            span.end = span.start + 3000 + static_cast<pinscope::TimeNs>(i % 7) * 100;
            span.bytes = i % 2 == 0 ? 0 : 192;
            span.cpu = static_cast<std::int16_t>(i % 2);
            span.numa_node = 0;
            delta.spans.push_back(span);
        }
        writer.record(delta);
    }
    pinscope::RunSummary summary;
    writer.finish(summary);
    const double s = seconds_since(begin);
    std::printf("write: %zu spans in %.3f s (%.2f us per span, %.0f k spans/s)\n", count, s,
                s / static_cast<double>(count) * 1e6, static_cast<double>(count) / s * 1e-3);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--write") return write_spans(std::strtoull(argv[2], nullptr, 10), argv[3]);
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [RUN]\n", argv[0]);
        return 2;
    }
    try {
        const pinscope::RecordingReader reader(argv[1]);
        const std::int64_t run = argc > 2 ? std::atoll(argv[2]) : reader.runs().back().id;

        auto start = Clock::now();
        const auto source = reader.source(run);
        std::size_t frames = 0;
        std::size_t spans = 0;
        while (const auto frame = source->next_frame()) {
            ++frames;
            spans += frame->spans.size();
            if (frame->ended) break;
        }
        const double source_s = seconds_since(start);
        std::printf("run source: %zu spans in %zu frames, %.3f s (%.2f M spans/s)\n", spans, frames, source_s,
                    static_cast<double>(spans) / source_s * 1e-6);

        start = Clock::now();
        const pinscope::RecordedRun loaded = reader.load(run);
        const double load_s = seconds_since(start);
        std::printf("load: %zu spans, %zu counter samples, %.3f s\n", loaded.record.spans.size(),
                    loaded.record.counters.size(), load_s);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
