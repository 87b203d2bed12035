// SPDX-License-Identifier: GPL-3.0-or-later
// A recording file (pinscope FILE, pinscope-cli show/export/compare FILE): whatever its bytes, the
// reader opens it, lists its runs, reads each run's summary, spans, counters and markers, and replays
// it as the window does, or says what is wrong in a RecordingError with a short printable
// message; never a crash, never another exception.
#include <algorithm>
#include <vector>

#include "engine/compare/RunComparison.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/UntrustedText.h"
#include "tests/fuzz/FuzzChecks.h"
#include "tests/fuzz/FuzzInput.h"

using namespace pinscope;

namespace {

constexpr std::size_t kRunsRead = 3;     // runs of one input read whole
constexpr int kFramesReplayed = 64;      // of each run's frames

void read_run(const RecordingReader& reader, const RecordedRunInfo& info) {
    fuzz::check_message(printable(info.host_name));
    const RecordedRun run = reader.load(info.id);
    fuzz::require(run.info.id == info.id, "a run loaded is the run asked for");
    for (const Span& span : run.record.spans)
        fuzz::require(static_cast<int>(span.stage) < kStageCount && static_cast<int>(span.lane.kind) < kLaneKindCount,
                      "a span read back has a stage and lane this build knows");
    for (const CounterSample& sample : run.record.counters)
        fuzz::require(static_cast<int>(sample.counter) < kCounterCount, "a counter read back is one this build knows");
    (void)reader.summary(info.id);
    (void)compare_runs(run.record, run.record);  // what pinscope-cli compare does with it

    const auto source = reader.source(info.id);
    for (int i = 0; i < kFramesReplayed; ++i) {
        const auto frame = source->next_frame();
        if (!frame || frame->ended) break;
        fuzz::require(frame->spans.size() <= 65536, "a recorded frame holds at most one chunk of spans");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::InputAsTempFile file;  // SQLite opens a path of its own
    const std::string& path = file.write(data, size);
    try {
        const RecordingReader reader(path);
        const std::vector<RecordedRunInfo> runs = reader.runs();
        for (std::size_t i = 0; i < std::min(runs.size(), kRunsRead); ++i) read_run(reader, runs[i]);
        try {
            (void)reader.run(1'000'000'000);
            fuzz::require(false, "a run the file does not hold is refused");
        } catch (const RecordingError& error) {
            fuzz::check_message(error.what());
        }
    } catch (const RecordingError& error) {
        fuzz::check_message(error.what());
    }
    return 0;
}
