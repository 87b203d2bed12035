// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the window's frames come from: the live engine (LiveRunSource), a fixed list of frames
// (FixedRunSource, for tests), a recorded run.
#include <cstddef>
#include <memory>
#include <vector>

#include "engine/runner/RunFrame.h"

namespace pinscope {

class RunSource {
public:
    virtual ~RunSource() = default;
    // Everything since the previous call as one frame; null when there is nothing new yet. After
    // the frame marked `ended`, always null.
    virtual std::shared_ptr<const RunFrame> next_frame() = 0;
};

// Hands out the frames it was given, one per call.
class FixedRunSource : public RunSource {
public:
    explicit FixedRunSource(std::vector<std::shared_ptr<const RunFrame>> frames) : frames_(std::move(frames)) {}
    std::shared_ptr<const RunFrame> next_frame() override {
        return next_ < frames_.size() ? frames_[next_++] : nullptr;
    }

private:
    std::vector<std::shared_ptr<const RunFrame>> frames_;
    std::size_t next_ = 0;
};

}  // namespace pinscope
