// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A FIFO between pipeline threads. pop() waits for an item or for close(); after close() the
// remaining items are still handed out, then pop() returns nullopt. take_all() empties it.
// A thread that takes part in modelled time waits for its turns (engine/clock/ModelledWait.h).
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

#include "engine/clock/ModelledWait.h"

namespace pinscope {

template <class T>
class BlockingQueue {
public:
    void push(T item) {
        {
            std::lock_guard lock(mutex_);
            items_.push_back(std::move(item));
        }
        ready_.notify_one();
    }

    std::optional<T> pop() {
        std::unique_lock lock(mutex_);
        wait_until(lock, ready_, [&] { return !items_.empty() || closed_; });
        if (items_.empty()) return std::nullopt;
        T item = std::move(items_.front());
        items_.pop_front();
        return item;
    }

    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        ready_.notify_all();
    }

    std::deque<T> take_all() {
        std::deque<T> taken;
        std::lock_guard lock(mutex_);
        taken.swap(items_);
        return taken;
    }

    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return items_.size();
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<T> items_;
    bool closed_ = false;
};

}  // namespace pinscope
