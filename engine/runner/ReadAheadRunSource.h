// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run source read on a thread of its own, a few frames ahead of the window: the GUI thread takes
// the frames that are ready and never waits while a recording is read and its figures worked out
// (RecordedRunSource builds each frame when asked). For sources whose frames come as fast as they
// are asked for; the live engine's are built on its observer thread already.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/runner/RunSource.h"

namespace pinscope {

class ReadAheadRunSource : public RunSource {
public:
    // Starts reading `inner` at once, keeping at most `depth` frames ready.
    explicit ReadAheadRunSource(std::shared_ptr<RunSource> inner, std::size_t depth = 8);
    ~ReadAheadRunSource() override;  // stops reading and waits for the thread
    ReadAheadRunSource(const ReadAheadRunSource&) = delete;
    ReadAheadRunSource& operator=(const ReadAheadRunSource&) = delete;

    // The next frame read, in order; null when none is ready yet, and always after the one marked
    // ended (or once `inner` has none left).
    std::shared_ptr<const RunFrame> next_frame() override;

private:
    void read();

    std::shared_ptr<RunSource> inner_;
    const std::size_t depth_;
    std::mutex mutex_;
    std::condition_variable room_;
    std::deque<std::shared_ptr<const RunFrame>> ready_;
    bool stop_ = false;
    std::thread thread_;  // last: it starts once everything it uses is there
};

}  // namespace pinscope
