// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memory/PinnedPool.h"

#include <unistd.h>

#include <algorithm>
#include <exception>
#include <string>

#include "engine/clock/ModelledWait.h"
#include "engine/clock/SteadyClock.h"
#include "engine/trace/LaneRecorder.h"

namespace pinscope {
namespace {

constexpr TimeNs kBudgetPoll = 200'000;

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

void PoolStat::increase(std::int64_t amount) {
    current += amount;
    allocated += amount;
    peak = std::max(peak, current);
}

void PoolStat::decrease(std::int64_t amount) {
    current -= amount;
    freed += amount;
}

void DurationStat::add(double us) {
    total_us += us;
    max_us = std::max(max_us, us);
    ++count;
}

PinnedPool::PinnedPool(Device& device, std::uint64_t budget_bytes, MessageSink messages)
    : device_(device), budget_(budget_bytes), messages_(std::move(messages)) {
    stats_.budget_bytes = budget_bytes;
}

PinnedPool::~PinnedPool() {
    try {
        release_all();
    } catch (const std::exception& e) {
        if (messages_) messages_(Severity::Error, std::string("pinned pool: freeing failed: ") + e.what());
    }
}

PinnedPool::Reservation PinnedPool::reserve(std::size_t bytes, const std::atomic<bool>& stop, LaneRecorder* recorder,
                                            std::size_t reuse_size, PinnedBlock* reused) {
    bool waited = false;
    while (true) {
        std::vector<PinnedBlock> to_free;
        {
            std::unique_lock lock(mutex_);
            auto cached = reuse_size != 0 ? free_lists_.find(reuse_size) : free_lists_.end();
            if (cached != free_lists_.end() && !cached->second.empty()) {
                *reused = cached->second.back();
                cached->second.pop_back();
                return Reservation::Reused;
            }
            if (committed_ + bytes <= budget_) {
                committed_ += bytes;
                return Reservation::Reserved;
            }
            // Give back cached blocks (largest first) before making anyone wait; host_free()
            // returns their bytes to the budget.
            std::uint64_t freeing = 0;
            for (auto it = free_lists_.rbegin(); it != free_lists_.rend(); ++it) {
                while (!it->second.empty() && committed_ - freeing + bytes > budget_) {
                    freeing += it->second.back().capacity;
                    to_free.push_back(it->second.back());
                    it->second.pop_back();
                }
            }
            if (to_free.empty()) {
                if (!waited) ++stats_.budget_waits;
                waited = true;
                wait_a_while(lock, released_, kBudgetPoll);
            }
        }
        free_blocks(to_free, recorder);
        if (to_free.empty()) {
            if (stop.load()) return Reservation::Stopped;
            process_events(recorder);
        }
    }
}

PinnedBlock PinnedPool::hand_out_locked(PinnedBlock block) {
    stats_.allocation.increase(1);
    stats_.allocated_bytes.increase(static_cast<std::int64_t>(block.capacity));
    in_use_bytes_.store(static_cast<std::uint64_t>(stats_.allocated_bytes.current), std::memory_order_relaxed);
    handed_out_[block.ptr] = block;
    return block;
}

PinnedBlock PinnedPool::handed_out(PinnedBlock block, int written_on_node) {
    if (observer_ != nullptr) observer_->handed_out(block, written_on_node);
    return block;
}

std::optional<PinnedBlock> PinnedPool::allocate(std::size_t bytes, const std::atomic<bool>& stop,
                                                LaneRecorder* recorder, std::uint64_t batch) {
    // Whole pages at least, so that the OS hands back exactly the block size.
    const std::size_t size = std::max(round_up_pow2(bytes), static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
    process_events(recorder);  // a block may just have come back
    PinnedBlock block;
    switch (reserve(size, stop, recorder, size, &block)) {
        case Reservation::Stopped: return std::nullopt;
        case Reservation::Reused: {
            std::unique_lock lock(mutex_);
            block.requested = bytes;
            ++stats_.cache_hits;
            block = hand_out_locked(block);
            lock.unlock();
            return handed_out(block);
        }
        case Reservation::Reserved: break;
    }
    const PinnedAllocation allocation =
        new_segment(size, recorder, batch, Stage::Alloc, [&] { return device_.allocate_pinned(size); });
    std::unique_lock lock(mutex_);
    block = hand_out_locked(
        PinnedBlock{allocation.ptr, allocation.bytes, bytes, PinnedBlock::Kind::Cached, allocation.locked});
    lock.unlock();
    return handed_out(block);
}

std::optional<PinnedBlock> PinnedPool::allocate_uncached(std::size_t bytes, const std::atomic<bool>& stop,
                                                         LaneRecorder* recorder, std::uint64_t batch) {
    process_events(recorder);
    if (reserve(bytes, stop, recorder) == Reservation::Stopped) return std::nullopt;
    const PinnedAllocation allocation =
        new_segment(bytes, recorder, batch, Stage::Alloc, [&] { return device_.allocate_pinned(bytes); });
    std::unique_lock lock(mutex_);
    const PinnedBlock block = hand_out_locked(
        PinnedBlock{allocation.ptr, allocation.bytes, bytes, PinnedBlock::Kind::Uncached, allocation.locked});
    lock.unlock();
    return handed_out(block);
}

std::optional<PinnedBlock> PinnedPool::register_buffer(PageableBuffer buffer, std::size_t bytes,
                                                       const std::atomic<bool>& stop, LaneRecorder* recorder,
                                                       std::uint64_t batch, int written_on_node) {
    process_events(recorder);
    if (reserve(bytes, stop, recorder) == Reservation::Stopped) return std::nullopt;
    void* ptr = buffer.get();
    // Registering in place is this mode's pin stage: no copy, but the locking itself costs.
    const PinnedAllocation allocation = new_segment(bytes, recorder, batch, Stage::Pin, [&] {
        return PinnedAllocation{ptr, bytes, device_.register_host(ptr, bytes)};
    });
    std::unique_lock lock(mutex_);
    registered_buffers_[ptr] = std::move(buffer);
    const PinnedBlock block =
        hand_out_locked(PinnedBlock{ptr, bytes, bytes, PinnedBlock::Kind::Registered, allocation.locked});
    lock.unlock();
    return handed_out(block, written_on_node);
}

PinnedAllocation PinnedPool::new_segment(std::size_t bytes, LaneRecorder* recorder, std::uint64_t batch, Stage stage,
                                         const std::function<PinnedAllocation()>& lock_memory) {
    const TimeNs start = now_ns();
    PinnedAllocation allocation;
    try {
        allocation = lock_memory();
    } catch (...) {
        std::lock_guard lock(mutex_);
        committed_ -= bytes;
        throw;
    }
    const TimeNs end = now_ns();
    if (recorder != nullptr) recorder->record(stage, batch, allocation.bytes, start, end);
    note_locked_state(allocation.locked, allocation.bytes);
    std::lock_guard lock(mutex_);
    ++stats_.num_host_alloc;
    stats_.host_alloc_time.add(static_cast<double>(end - start) / 1e3);
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase(static_cast<std::int64_t>(allocation.bytes));
    reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
    committed_ += allocation.bytes - bytes;  // the OS may round up to whole pages
    return allocation;
}

void PinnedPool::set_registered_free(BufferFree free) {
    std::lock_guard lock(mutex_);
    registered_free_ = std::move(free);
}

void PinnedPool::release(const PinnedBlock& block, OpId after) {
    {
        std::lock_guard lock(mutex_);
        pending_.push_back({block, after});
    }
    if (after == 0) process_events();
}

void PinnedPool::process_events(LaneRecorder* recorder) { retire_pending(recorder, false); }

void PinnedPool::retire_pending(LaneRecorder* recorder, bool all) {
    std::vector<PinnedBlock> to_free;
    std::vector<PinnedBlock> retired;
    {
        std::lock_guard lock(mutex_);
        // Asked first, so that a device that fails to answer leaves pending_ as it was.
        std::vector<Pending> still;
        std::vector<Pending> done;
        for (const Pending& p : pending_) (all || device_.is_complete(p.after) ? done : still).push_back(p);
        if (done.empty()) return;
        pending_.swap(still);
        for (const Pending& p : done) {
            const PinnedBlock& block = p.block;
            if (observer_ != nullptr) retired.push_back(block);
            handed_out_.erase(block.ptr);
            stats_.allocation.decrease(1);
            stats_.allocated_bytes.decrease(static_cast<std::int64_t>(block.capacity));
            if (block.kind == PinnedBlock::Kind::Cached)
                free_lists_[block.capacity].push_back(block);
            else
                to_free.push_back(block);
        }
        in_use_bytes_.store(static_cast<std::uint64_t>(stats_.allocated_bytes.current), std::memory_order_relaxed);
    }
    for (const PinnedBlock& block : retired) observer_->retired(block);
    released_.notify_all();
    free_blocks(to_free, recorder);
}

void PinnedPool::free_blocks(const std::vector<PinnedBlock>& blocks, LaneRecorder* recorder) {
    // Every block goes, even after one fails to; the first failure is the one reported.
    std::exception_ptr failure;
    for (const PinnedBlock& block : blocks) {
        try {
            host_free(block, recorder);
        } catch (...) {
            if (!failure) failure = std::current_exception();
        }
    }
    if (!blocks.empty()) released_.notify_all();
    if (failure) std::rethrow_exception(failure);
}

void PinnedPool::host_free(const PinnedBlock& block, LaneRecorder* recorder) {
    if (observer_ != nullptr) observer_->freed(block);
    const TimeNs start = now_ns();
    PageableBuffer owned;
    std::exception_ptr failure;
    try {
        if (block.kind == PinnedBlock::Kind::Registered)
            device_.unregister_host(block.ptr, block.capacity);
        else
            device_.free_pinned(PinnedAllocation{block.ptr, block.capacity, block.locked});
    } catch (...) {
        failure = std::current_exception();  // the pool lets go of the block all the same
    }
    BufferFree free_buffer;
    if (block.kind == PinnedBlock::Kind::Registered) {
        std::lock_guard lock(mutex_);
        auto it = registered_buffers_.find(block.ptr);
        if (it != registered_buffers_.end()) {
            owned = std::move(it->second);
            registered_buffers_.erase(it);
        }
        free_buffer = registered_free_;
    }
    if (owned && free_buffer) {
        try {
            free_buffer(owned, block.capacity);
        } catch (...) {
            if (!failure) failure = std::current_exception();
        }
    }
    owned.reset();
    const TimeNs end = now_ns();
    if (recorder != nullptr && !failure) recorder->record(Stage::Free, 0, block.capacity, start, end);
    {
        std::lock_guard lock(mutex_);
        ++stats_.num_host_free;
        stats_.host_free_time.add(static_cast<double>(end - start) / 1e3);
        stats_.segment.decrease(1);
        stats_.reserved_bytes.decrease(static_cast<std::int64_t>(block.capacity));
        reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
        committed_ -= block.capacity;
    }
    if (failure) std::rethrow_exception(failure);
}

void PinnedPool::empty_cache() {
    std::vector<PinnedBlock> to_free;
    {
        std::lock_guard lock(mutex_);
        for (auto& [size, blocks] : free_lists_)
            for (const PinnedBlock& block : blocks) to_free.push_back(block);
        free_lists_.clear();
    }
    free_blocks(to_free, nullptr);
}

void PinnedPool::release_all() {
    std::vector<OpId> waits;
    std::size_t leaked = 0;
    {
        std::lock_guard lock(mutex_);
        for (const Pending& p : pending_) waits.push_back(p.after);
        for (const auto& [ptr, block] : handed_out_) {
            const bool pending = std::any_of(pending_.begin(), pending_.end(),
                                             [key = ptr](const Pending& p) { return p.block.ptr == key; });
            if (!pending) {
                pending_.push_back({block, 0});
                ++leaked;
            }
        }
    }
    if (leaked > 0 && messages_)
        messages_(Severity::Warning, "pinned pool: " + std::to_string(leaked) +
                                         " block(s) were still held by batches at the end of the run; freed them");
    // A device that fails here (a sticky CUDA error) will never read the blocks again: every block
    // is freed all the same, and the first failure is rethrown once everything is.
    std::exception_ptr failure;
    try {
        for (OpId op : waits) device_.wait(op);
        process_events();
    } catch (...) {
        failure = std::current_exception();
    }
    try {
        if (failure) retire_pending(nullptr, true);
        empty_cache();
    } catch (...) {
        if (!failure) failure = std::current_exception();
    }
    if (failure) std::rethrow_exception(failure);
}

void PinnedPool::note_locked_state(bool locked, std::size_t bytes) {
    if (locked) return;
    {
        std::lock_guard lock(mutex_);
        stats_.locked = false;
    }
    if (!warned_unlocked_.exchange(true) && messages_) {
        const std::uint64_t limit = memlock_limit_bytes();
        messages_(Severity::Warning,
                  "pinned memory: the OS refused to lock " + mib(bytes) + " (RLIMIT_MEMLOCK is " +
                      (limit == UINT64_MAX ? std::string("unlimited") : mib(limit)) +
                      "). Going on with unlocked memory, marked as such: the footprint is real, but the pages "
                      "can be swapped, so this is not what pinned memory does. Raise the limit (ulimit -l) or run "
                      "with CAP_IPC_LOCK.");
    }
}

PoolStats PinnedPool::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace pinscope
