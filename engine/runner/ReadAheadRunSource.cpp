// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/runner/ReadAheadRunSource.h"

#include <utility>

namespace pinscope {

ReadAheadRunSource::ReadAheadRunSource(std::shared_ptr<RunSource> inner, std::size_t depth)
    : inner_(std::move(inner)), depth_(depth > 0 ? depth : 1), thread_([this] { read(); }) {}

ReadAheadRunSource::~ReadAheadRunSource() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    room_.notify_all();
    thread_.join();
}

void ReadAheadRunSource::read() {
    for (;;) {
        std::shared_ptr<const RunFrame> frame;
        try {
            frame = inner_->next_frame();
        } catch (const std::exception&) {
            frame = nullptr;  // a source that fails without saying so in a frame ends here
        }
        std::unique_lock lock(mutex_);
        if (!frame || stop_) return;
        room_.wait(lock, [this] { return stop_ || ready_.size() < depth_; });
        if (stop_) return;
        const bool ended = frame->ended;
        ready_.push_back(std::move(frame));
        if (ended) return;
    }
}

std::shared_ptr<const RunFrame> ReadAheadRunSource::next_frame() {
    std::shared_ptr<const RunFrame> frame;
    {
        const std::lock_guard lock(mutex_);
        if (ready_.empty()) return nullptr;
        frame = std::move(ready_.front());
        ready_.pop_front();
    }
    room_.notify_one();
    return frame;
}

}  // namespace pinscope
