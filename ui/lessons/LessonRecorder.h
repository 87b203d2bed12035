// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Keeps each lesson step's run: the window's engine is given this recorder once, and it records a
// run into the lesson's session recording only when the Lessons panel armed it before that run
// started (other runs of the window go unrecorded). Each kept run is a run of the recording, so
// two steps can be compared as two recorded runs.
#include <cstdint>
#include <memory>
#include <mutex>

#include "engine/record/RecordingWriter.h"
#include "engine/runner/RunRecorder.h"

namespace pinscope::ui {

class LessonRecorder : public RunRecorder {
public:
    // The next run that begins goes into `recording`.
    void arm(std::shared_ptr<RecordingWriter> recording);
    void begin(const RunStart& start) override;
    void record(const TraceDelta& delta) override;
    void record(const NumaSample& sample) override;
    void begin_segment(const RunSegment& segment) override;
    // Finishes the run being recorded, if any; throws what RecordingWriter::finish throws.
    void finish(const RunSummary& summary) override;
    // The run number of the last run begun in a recording; 0 when none.
    std::int64_t last_run() const;

private:
    mutable std::mutex mutex_;
    std::shared_ptr<RecordingWriter> armed_;
    std::shared_ptr<RecordingWriter> current_;
    std::int64_t last_run_ = 0;
};

}  // namespace pinscope::ui
