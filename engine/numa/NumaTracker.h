// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's NUMA accounting: on which nodes the pages of each pinned block are (read back with
// move_pages on this machine, from the plan on a loaded topology), the pinned bytes in use per
// node, and how many bytes crossed nodes: host-to-device copies from pages on another node than
// the GPU's, host copies (collate, pin) by a thread on another node than their destination.
// Thread-safe; usage() is cheap enough for a UI's 30 Hz poll. Pages are never read on a machine of
// one node, and a pageable batch's at most once per 20 ms for each node whose threads write
// batches: a read is a move_pages call, which took a median 12 to 23 us after each collate and
// before each pageable copy on an H200 VM (2026-12-02), slowing the pipeline it measures.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/clock/TimeNs.h"
#include "engine/device/Device.h"
#include "engine/memory/PinnedPool.h"
#include "engine/numa/NumaPlan.h"
#include "engine/numa/PageLocations.h"
#include "engine/numa/NumaUsage.h"

namespace pinscope {

class NumaTracker final : public PinnedBlockObserver {
public:
    // Where the sampled pages of [ptr, ptr + bytes) are; sample_page_nodes unless a test says.
    using PageReader = std::function<PageSample(const void* ptr, std::size_t bytes)>;
    explicit NumaTracker(std::shared_ptr<const NumaPlan> plan, PageReader reader = {});

    // A new configuration's plan. `forget_blocks` when the pool's cached blocks were freed (the
    // topology or membind changed); otherwise cached blocks keep their pages where they are.
    void set_plan(std::shared_ptr<const NumaPlan> plan, bool forget_blocks);
    std::shared_ptr<const NumaPlan> plan() const;

    void handed_out(const PinnedBlock& block, int written_on_node) override;
    void retired(const PinnedBlock& block) override;
    void freed(const PinnedBlock& block) override;

    // Counts a host-to-device copy; returns the share of its source on another node than the
    // GPU's (the plan's reference node). `written_on_node`: where a pageable source was collated.
    double count_h2d(const HostSource& source, int written_on_node);
    // Before a host copy into `dst` by this thread: the share of `dst` on another node than the
    // thread's (a pinned block by its pages; a pageable destination is first touched right here).
    double destination_remote_share(const void* dst, bool pinned) const;
    // After it: counts the copy, reading a real pageable destination's pages now that they exist.
    void count_host_copy(const void* dst, std::size_t bytes, bool pinned);

    NumaUsage usage() const;
    // The most pinned bytes in use on each node at once (each node's own peak), ascending node.
    std::vector<NodeUsage> peak_pinned() const;

private:
    using Shares = std::vector<std::pair<int, double>>;  // node, share of the block's bytes
    struct BlockPages {
        std::uint64_t bytes = 0;
        Shares shares;
        bool settled = false;  // every sampled page was found (or reading them is not possible)
        int uses = 0;          // handed out and not yet retired
    };
    Shares read_shares(const void* ptr, std::size_t bytes, bool* settled) const;
    // A pageable buffer written by a thread on `writer_node` (-1: unknown): read, or the last read
    // of one from that node when it is recent.
    Shares pageable_shares(const void* ptr, std::size_t bytes, int writer_node);
    Shares shares_of(const void* ptr, std::size_t bytes) const;  // a known block's, or read now
    static double share_off(const Shares& shares, int node);
    std::vector<std::pair<int, std::uint64_t>> in_use_locked() const;

    PageReader read_pages_;
    mutable std::mutex mutex_;
    std::shared_ptr<const NumaPlan> plan_;
    std::map<const void*, BlockPages> blocks_;
    std::map<int, std::uint64_t> peak_;
    struct PageableRead {
        TimeNs at = 0;
        Shares shares;
    };
    std::mutex pageable_mutex_;
    std::map<int, PageableRead> pageable_reads_;  // by writer node
    std::atomic<std::uint64_t> h2d_bytes_{0};
    std::atomic<std::uint64_t> cross_node_h2d_bytes_{0};
    std::atomic<std::uint64_t> host_copy_bytes_{0};
    std::atomic<std::uint64_t> cross_node_host_copy_bytes_{0};
};

}  // namespace pinscope
