#include "memory/PinnedPool.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "clock/SteadyClock.h"
#include "trace/LaneRecorder.h"

namespace pinscope {
namespace {

constexpr auto kBudgetPoll = std::chrono::microseconds(200);

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

bool PinnedPool::reserve(std::size_t bytes, const std::atomic<bool>& stop, LaneRecorder* recorder) {
    bool waited = false;
    while (true) {
        std::vector<PinnedBlock> to_free;
        {
            std::unique_lock lock(mutex_);
            if (committed_ + bytes <= budget_) {
                committed_ += bytes;
                return true;
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
                released_.wait_for(lock, kBudgetPoll);
            }
        }
        free_blocks(to_free, recorder);
        if (to_free.empty()) {
            if (stop.load()) return false;
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

std::optional<PinnedBlock> PinnedPool::allocate(std::size_t bytes, const std::atomic<bool>& stop,
                                                LaneRecorder* recorder, std::uint64_t batch) {
    const std::size_t size = round_up_pow2(bytes);
    for (int attempt = 0; attempt < 2; ++attempt) {
        {
            std::lock_guard lock(mutex_);
            auto it = free_lists_.find(size);
            if (it != free_lists_.end() && !it->second.empty()) {
                PinnedBlock block = it->second.back();
                it->second.pop_back();
                block.requested = bytes;
                ++stats_.cache_hits;
                return hand_out_locked(block);
            }
        }
        if (attempt == 0) process_events(recorder);  // a block may just have come back
    }
    if (!reserve(size, stop, recorder)) return std::nullopt;
    PinnedAllocation allocation;
    try {
        allocation = [&] {
            const TimeNs start = now_ns();
            PinnedAllocation a = device_.allocate_pinned(size);
            if (recorder != nullptr) recorder->record(Stage::Alloc, batch, size, start, now_ns());
            std::lock_guard lock(mutex_);
            ++stats_.num_host_alloc;
            stats_.host_alloc_time.add(static_cast<double>(now_ns() - start) / 1e3);
            return a;
        }();
    } catch (...) {
        std::lock_guard lock(mutex_);
        committed_ -= size;
        throw;
    }
    note_locked_state(allocation.locked, size);
    std::lock_guard lock(mutex_);
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase(static_cast<std::int64_t>(size));
    reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
    return hand_out_locked(PinnedBlock{allocation.ptr, size, bytes, PinnedBlock::Kind::Cached, allocation.locked});
}

std::optional<PinnedBlock> PinnedPool::allocate_uncached(std::size_t bytes, const std::atomic<bool>& stop,
                                                         LaneRecorder* recorder, std::uint64_t batch) {
    process_events(recorder);
    if (!reserve(bytes, stop, recorder)) return std::nullopt;
    const TimeNs start = now_ns();
    PinnedAllocation allocation;
    try {
        allocation = device_.allocate_pinned(bytes);
    } catch (...) {
        std::lock_guard lock(mutex_);
        committed_ -= bytes;
        throw;
    }
    const TimeNs end = now_ns();
    if (recorder != nullptr) recorder->record(Stage::Alloc, batch, bytes, start, end);
    note_locked_state(allocation.locked, bytes);
    std::lock_guard lock(mutex_);
    ++stats_.num_host_alloc;
    stats_.host_alloc_time.add(static_cast<double>(end - start) / 1e3);
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase(static_cast<std::int64_t>(allocation.bytes));
    reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
    // The budget was reserved for the bytes asked; the OS may have rounded up to whole pages.
    committed_ += allocation.bytes - bytes;
    return hand_out_locked(PinnedBlock{allocation.ptr, allocation.bytes, bytes, PinnedBlock::Kind::Uncached, allocation.locked});
}

std::optional<PinnedBlock> PinnedPool::register_buffer(PageableBuffer buffer, std::size_t bytes,
                                                       const std::atomic<bool>& stop, LaneRecorder* recorder,
                                                       std::uint64_t batch) {
    process_events(recorder);
    if (!reserve(bytes, stop, recorder)) return std::nullopt;
    void* ptr = buffer.get();
    const TimeNs start = now_ns();
    bool locked = false;
    try {
        locked = device_.register_host(ptr, bytes);
    } catch (...) {
        std::lock_guard lock(mutex_);
        committed_ -= bytes;
        throw;
    }
    const TimeNs end = now_ns();
    if (recorder != nullptr) recorder->record(Stage::Pin, batch, bytes, start, end);
    note_locked_state(locked, bytes);
    std::lock_guard lock(mutex_);
    ++stats_.num_host_alloc;
    stats_.host_alloc_time.add(static_cast<double>(end - start) / 1e3);
    stats_.segment.increase(1);
    stats_.reserved_bytes.increase(static_cast<std::int64_t>(bytes));
    reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
    registered_buffers_[ptr] = std::move(buffer);
    return hand_out_locked(PinnedBlock{ptr, bytes, bytes, PinnedBlock::Kind::Registered, locked});
}

void PinnedPool::release(const PinnedBlock& block, OpId after) {
    {
        std::lock_guard lock(mutex_);
        pending_.push_back({block, after});
    }
    if (after == 0) process_events();
}

void PinnedPool::process_events(LaneRecorder* recorder) {
    std::vector<PinnedBlock> to_free;
    {
        std::lock_guard lock(mutex_);
        auto done = std::stable_partition(pending_.begin(), pending_.end(),
                                          [&](const Pending& p) { return !device_.is_complete(p.after); });
        if (done == pending_.end()) return;
        for (auto it = done; it != pending_.end(); ++it) {
            const PinnedBlock& block = it->block;
            handed_out_.erase(block.ptr);
            stats_.allocation.decrease(1);
            stats_.allocated_bytes.decrease(static_cast<std::int64_t>(block.capacity));
            if (block.kind == PinnedBlock::Kind::Cached)
                free_lists_[block.capacity].push_back(block);
            else
                to_free.push_back(block);
        }
        pending_.erase(done, pending_.end());
        in_use_bytes_.store(static_cast<std::uint64_t>(stats_.allocated_bytes.current), std::memory_order_relaxed);
    }
    released_.notify_all();
    free_blocks(to_free, recorder);
}

void PinnedPool::free_blocks(const std::vector<PinnedBlock>& blocks, LaneRecorder* recorder) {
    for (const PinnedBlock& block : blocks) host_free(block, recorder);
    if (!blocks.empty()) released_.notify_all();
}

void PinnedPool::host_free(const PinnedBlock& block, LaneRecorder* recorder) {
    const TimeNs start = now_ns();
    PageableBuffer owned;
    if (block.kind == PinnedBlock::Kind::Registered) {
        device_.unregister_host(block.ptr, block.capacity);
        std::lock_guard lock(mutex_);
        auto it = registered_buffers_.find(block.ptr);
        if (it != registered_buffers_.end()) {
            owned = std::move(it->second);
            registered_buffers_.erase(it);
        }
    } else {
        device_.free_pinned(PinnedAllocation{block.ptr, block.capacity, block.locked});
    }
    owned.reset();
    const TimeNs end = now_ns();
    if (recorder != nullptr) recorder->record(Stage::Free, 0, block.capacity, start, end);
    std::lock_guard lock(mutex_);
    ++stats_.num_host_free;
    stats_.host_free_time.add(static_cast<double>(end - start) / 1e3);
    stats_.segment.decrease(1);
    stats_.reserved_bytes.decrease(static_cast<std::int64_t>(block.capacity));
    reserved_.store(static_cast<std::uint64_t>(stats_.reserved_bytes.current), std::memory_order_relaxed);
    committed_ -= block.capacity;
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
                                             [&](const Pending& p) { return p.block.ptr == ptr; });
            if (!pending) {
                pending_.push_back({block, 0});
                ++leaked;
            }
        }
    }
    if (leaked > 0 && messages_)
        messages_(Severity::Warning, "pinned pool: " + std::to_string(leaked) +
                                         " block(s) were still held by batches at the end of the run; freed them");
    for (OpId op : waits) device_.wait(op);
    process_events();
    empty_cache();
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
