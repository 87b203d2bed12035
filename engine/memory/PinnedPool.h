// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// All page-locked memory of a run goes through here, so that the footprint is counted in one place
// and never exceeds the budget. Three ways to get it, matching the pin modes:
//  - allocate(): PyTorch's caching host allocator. Sizes round up to a power of two, one free list
//    per size, no splitting; a released block goes back to its free list only once the device has
//    completed the copy that read it.
//  - allocate_uncached(): a fresh page-locked allocation (cudaHostAlloc), freed once its copy ends.
//  - register_buffer(): a batch's own pageable buffer locked in place (malloc + cudaHostRegister),
//    unregistered and freed once its copy ends.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/config/PinnedBudget.h"
#include "engine/device/Device.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/trace/MessageSink.h"
#include "engine/trace/Span.h"

namespace pinscope {

class LaneRecorder;

struct PinnedBlock {
    enum class Kind : std::uint8_t { Cached, Uncached, Registered };
    void* ptr = nullptr;
    std::size_t capacity = 0;   // bytes locked for this block (rounded)
    std::size_t requested = 0;  // bytes asked for
    Kind kind = Kind::Cached;
    bool locked = true;
};

// Current, peak and totals of a quantity, as PyTorch's allocator stats report them.
struct PoolStat {
    std::int64_t current = 0;
    std::int64_t peak = 0;
    std::int64_t allocated = 0;  // total increase over the run
    std::int64_t freed = 0;      // total decrease over the run
    void increase(std::int64_t amount);
    void decrease(std::int64_t amount);
};

struct DurationStat {
    double total_us = 0;
    double max_us = 0;
    std::uint64_t count = 0;
    void add(double us);
};

// Names follow torch.cuda.host_memory_stats() where it has one.
struct PoolStats {
    PoolStat allocation;       // blocks handed to batches
    PoolStat segment;          // page-locked allocations held from the OS
    PoolStat allocated_bytes;  // bytes handed to batches (rounded block sizes): "in use"
    PoolStat reserved_bytes;   // bytes held page-locked, cached blocks included
    std::uint64_t num_host_alloc = 0;
    std::uint64_t num_host_free = 0;
    DurationStat host_alloc_time;
    DurationStat host_free_time;
    std::uint64_t cache_hits = 0;
    std::uint64_t budget_waits = 0;  // times a request waited for the budget
    std::uint64_t budget_bytes = 0;
    bool locked = true;              // false once the OS refused to lock memory
};

// Follows blocks as the pool hands them out, takes them back and frees them (the NUMA accounting
// does). Called without the pool's lock, on the thread that caused it.
class PinnedBlockObserver {
public:
    virtual ~PinnedBlockObserver() = default;
    // `written_on_node`: the node of the thread that wrote a registered buffer; -1: the caller's.
    virtual void handed_out(const PinnedBlock& block, int written_on_node) = 0;
    virtual void retired(const PinnedBlock& block) = 0;  // no longer held by a batch
    virtual void freed(const PinnedBlock& block) = 0;    // given back to the OS
};

class PinnedPool {
public:
    PinnedPool(Device& device, std::uint64_t budget_bytes, MessageSink messages = {});
    ~PinnedPool();  // frees every block; it is an error to hold blocks past this
    PinnedPool(const PinnedPool&) = delete;
    PinnedPool& operator=(const PinnedPool&) = delete;

    // Each waits while the budget is reached and returns nullopt if `stop` becomes true meanwhile.
    // Costs of page-locking are recorded as Alloc spans on `recorder` when one is given.
    std::optional<PinnedBlock> allocate(std::size_t bytes, const std::atomic<bool>& stop,
                                        LaneRecorder* recorder = nullptr, std::uint64_t batch = 0);
    std::optional<PinnedBlock> allocate_uncached(std::size_t bytes, const std::atomic<bool>& stop,
                                                 LaneRecorder* recorder = nullptr, std::uint64_t batch = 0);
    // Takes ownership of the buffer; it is unregistered and freed when the block retires (or freed
    // at once on nullopt). `written_on_node` is where the thread that wrote the buffer runs (for the observer).
    std::optional<PinnedBlock> register_buffer(PageableBuffer buffer, std::size_t bytes, const std::atomic<bool>& stop,
                                               LaneRecorder* recorder = nullptr, std::uint64_t batch = 0,
                                               int written_on_node = -1);
    // Set before blocks are handed out; null for none.
    void set_observer(PinnedBlockObserver* observer) { observer_ = observer; }
    // How a retiring registered batch's buffer is freed once unregistered: through the run's host
    // work, which charges a modelled host's free for it. Empty (the default): freed here.
    using BufferFree = std::function<void(PageableBuffer& buffer, std::size_t bytes)>;
    void set_registered_free(BufferFree free);

    // Gives the block back once `after` has completed on the device (0: at once).
    void release(const PinnedBlock& block, OpId after);
    // Retires released blocks whose operation completed. Uncached and registered blocks are freed
    // here, their cost recorded as Free spans on `recorder`.
    void process_events(LaneRecorder* recorder = nullptr);
    // Frees every cached free block (torch.cuda.empty_cache for host memory).
    void empty_cache();
    // Waits for every pending block's operation and frees everything. Blocks still handed out are
    // an error the pool reports and frees anyway. When the device fails to wait or to free, every
    // block is still let go of, and the first failure is thrown once at the end.
    void release_all();

    PoolStats stats() const;
    std::uint64_t in_use_bytes() const { return in_use_bytes_.load(std::memory_order_relaxed); }
    std::uint64_t reserved_bytes() const { return reserved_.load(std::memory_order_relaxed); }
    std::uint64_t budget_bytes() const { return budget_; }

private:
    struct Pending {
        PinnedBlock block;
        OpId after;
    };
    enum class Reservation { Reserved, Reused, Stopped };
    // Reserves `bytes` of the budget, freeing cached blocks of other sizes or waiting for releases
    // as needed; a cached block of `reuse_size` that turns up meanwhile is taken instead.
    Reservation reserve(std::size_t bytes, const std::atomic<bool>& stop, LaneRecorder* recorder,
                        std::size_t reuse_size = 0, PinnedBlock* reused = nullptr);
    // Runs `lock_memory` (the page-locking call) for reserved bytes and counts the new segment;
    // gives the reservation back if it throws.
    PinnedAllocation new_segment(std::size_t bytes, LaneRecorder* recorder, std::uint64_t batch, Stage stage,
                                 const std::function<PinnedAllocation()>& lock_memory);
    PinnedBlock hand_out_locked(PinnedBlock block);
    PinnedBlock handed_out(PinnedBlock block, int written_on_node = -1);  // tells the observer
    // Retires pending blocks whose operation completed, or all of them.
    void retire_pending(LaneRecorder* recorder, bool all);
    void host_free(const PinnedBlock& block, LaneRecorder* recorder);
    void note_locked_state(bool locked, std::size_t bytes);
    void free_blocks(const std::vector<PinnedBlock>& blocks, LaneRecorder* recorder);

    Device& device_;
    PinnedBlockObserver* observer_ = nullptr;
    const std::uint64_t budget_;
    MessageSink messages_;
    mutable std::mutex mutex_;
    std::condition_variable released_;
    std::map<std::size_t, std::vector<PinnedBlock>> free_lists_;  // by capacity
    std::vector<Pending> pending_;
    std::map<void*, PinnedBlock> handed_out_;
    std::map<void*, PageableBuffer> registered_buffers_;
    BufferFree registered_free_;
    std::uint64_t committed_ = 0;  // bytes reserved against the budget, including allocations in progress
    std::atomic<std::uint64_t> reserved_{0};
    std::atomic<std::uint64_t> in_use_bytes_{0};
    std::atomic<bool> warned_unlocked_{false};
    PoolStats stats_;
};

}  // namespace pinscope
