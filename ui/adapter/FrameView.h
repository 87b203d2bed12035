// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every part of the window that shows a run is: fed one frame at a time, in order, and keeps
// what it needs of them. None reads another's state or the engine.
#include "engine/runner/RunFrame.h"

namespace pinscope::ui {

class FrameView {
public:
    virtual ~FrameView() = default;
    // A frame of the run shown; its first (frame.first) starts afresh.
    virtual void take(const RunFrame& frame) = 0;
};

}  // namespace pinscope::ui
