// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/NumaTracker.h"

#include <algorithm>
#include <cmath>

#include "engine/clock/SteadyClock.h"
#include "engine/numa/PageLocations.h"
#include "engine/numa/ThreadPlacement.h"

namespace pinscope {
namespace {

constexpr TimeNs kPageableReadInterval = 20'000'000;

std::uint64_t share_of_bytes(std::uint64_t bytes, double share) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * std::clamp(share, 0.0, 1.0)));
}

}  // namespace

NumaTracker::NumaTracker(std::shared_ptr<const NumaPlan> plan, PageReader reader)
    : read_pages_(reader ? std::move(reader)
                         : PageReader([](const void* ptr, std::size_t bytes) { return sample_page_nodes(ptr, bytes); })),
      plan_(std::move(plan)) {}

void NumaTracker::set_plan(std::shared_ptr<const NumaPlan> plan, bool forget_blocks) {
    {
        std::lock_guard lock(pageable_mutex_);
        pageable_reads_.clear();  // threads may stand elsewhere under the new plan
    }
    std::lock_guard lock(mutex_);
    plan_ = std::move(plan);
    if (forget_blocks) {
        blocks_.clear();
        peak_.clear();
    }
}

std::shared_ptr<const NumaPlan> NumaTracker::plan() const {
    std::lock_guard lock(mutex_);
    return plan_;
}

double NumaTracker::share_off(const Shares& shares, int node) {
    double off = 0;
    for (const auto& [other, share] : shares)
        if (other != node) off += share;
    return node < 0 ? 0 : off;
}

NumaTracker::Shares NumaTracker::read_shares(const void* ptr, std::size_t bytes, bool* settled) const {
    if (const std::shared_ptr<const NumaPlan> plan = this->plan();
        plan != nullptr && plan->topology != nullptr && plan->topology->single_node() && !plan->topology->nodes.empty()) {
        if (settled != nullptr) *settled = true;
        return {{plan->topology->nodes.front().os_index, 1.0}};  // nowhere else for a page to be
    }
    const PageSample sample = read_pages_(ptr, bytes);
    if (settled != nullptr) *settled = sample.unknown == 0 || !sample.error.empty();
    Shares shares;
    if (sample.sampled == 0) return shares;
    for (const NodePages& n : sample.nodes)
        shares.emplace_back(n.node, static_cast<double>(n.pages) / static_cast<double>(sample.sampled));
    return shares;
}

NumaTracker::Shares NumaTracker::pageable_shares(const void* ptr, std::size_t bytes, int writer_node) {
    const TimeNs now = now_ns();
    std::lock_guard lock(pageable_mutex_);
    PageableRead& last = pageable_reads_[writer_node];
    if (last.at == 0 || now - last.at >= kPageableReadInterval) last = {now, read_shares(ptr, bytes, nullptr)};
    return last.shares;
}

NumaTracker::Shares NumaTracker::shares_of(const void* ptr, std::size_t bytes) const {
    {
        std::lock_guard lock(mutex_);
        if (const auto it = blocks_.find(ptr); it != blocks_.end()) return it->second.shares;
    }
    return read_shares(ptr, bytes, nullptr);
}

void NumaTracker::handed_out(const PinnedBlock& block, int written_on_node) {
    std::shared_ptr<const NumaPlan> plan;
    bool known = false;
    {
        std::lock_guard lock(mutex_);
        plan = plan_;
        const auto it = blocks_.find(block.ptr);
        known = it != blocks_.end() && it->second.settled;
        if (known) ++it->second.uses;
    }
    if (!known && plan != nullptr) {
        // First hand-out (or pages not all there yet): where are they?
        BlockPages pages{block.capacity, {}, true, 1};
        if (plan->modelled)
            pages.shares = plan->modelled_shares(written_on_node >= 0 ? written_on_node : current_host_cpu().node);
        else
            pages.shares = read_shares(block.ptr, block.capacity, &pages.settled);
        std::lock_guard lock(mutex_);
        BlockPages& entry = blocks_[block.ptr];
        pages.uses = entry.uses + 1;
        entry = std::move(pages);
    }
    std::lock_guard lock(mutex_);
    for (const auto& [node, bytes] : in_use_locked()) peak_[node] = std::max(peak_[node], bytes);
}

void NumaTracker::retired(const PinnedBlock& block) {
    std::lock_guard lock(mutex_);
    if (const auto it = blocks_.find(block.ptr); it != blocks_.end() && it->second.uses > 0) --it->second.uses;
}

void NumaTracker::freed(const PinnedBlock& block) {
    std::lock_guard lock(mutex_);
    blocks_.erase(block.ptr);  // the address may be mapped again for something else
}

double NumaTracker::count_h2d(const HostSource& source, int written_on_node) {
    const std::shared_ptr<const NumaPlan> plan = this->plan();
    h2d_bytes_ += source.bytes;
    if (plan == nullptr) return 0;
    double remote = 0;
    if (source.pinned) {
        remote = share_off(shares_of(source.ptr, source.bytes), plan->reference_node);
    } else if (plan->modelled || source.ptr == nullptr) {
        // Modelled work never touches a pageable batch: it is where its collating thread stands.
        remote = written_on_node >= 0 && written_on_node != plan->reference_node ? 1.0 : 0.0;
    } else {
        remote = share_off(pageable_shares(source.ptr, source.bytes, written_on_node), plan->reference_node);
    }
    cross_node_h2d_bytes_ += share_of_bytes(source.bytes, remote);
    return remote;
}

double NumaTracker::destination_remote_share(const void* dst, bool pinned) const {
    if (!pinned || plan() == nullptr) return 0;
    return share_off(shares_of(dst, 0), current_host_cpu().node);
}

void NumaTracker::count_host_copy(const void* dst, std::size_t bytes, bool pinned) {
    const std::shared_ptr<const NumaPlan> plan = this->plan();
    host_copy_bytes_ += bytes;
    if (plan == nullptr) return;
    double remote = 0;
    if (pinned)
        remote = share_off(shares_of(dst, bytes), current_host_cpu().node);
    else if (!plan->modelled && dst != nullptr) {
        const int writer_node = current_host_cpu().node;
        remote = share_off(pageable_shares(dst, bytes, writer_node), writer_node);
    }
    cross_node_host_copy_bytes_ += share_of_bytes(bytes, remote);
}

std::vector<std::pair<int, std::uint64_t>> NumaTracker::in_use_locked() const {
    std::map<int, std::uint64_t> by_node;
    for (const auto& [ptr, block] : blocks_) {
        if (block.uses <= 0) continue;
        for (const auto& [node, share] : block.shares) by_node[node] += share_of_bytes(block.bytes, share);
    }
    return {by_node.begin(), by_node.end()};
}

NumaUsage NumaTracker::usage() const {
    NumaUsage usage;
    {
        std::lock_guard lock(mutex_);
        if (plan_ != nullptr) {
            usage.gpu_pci_bus_id = plan_->gpu_pci_bus_id;
            usage.gpu_node = plan_->gpu_node;
            usage.modelled = plan_->modelled;
            for (const TopologyNode& node : plan_->topology->nodes) usage.nodes.push_back({node.os_index, 0});
        }
        for (const auto& [node, bytes] : in_use_locked()) {
            const auto it = std::find_if(usage.nodes.begin(), usage.nodes.end(),
                                         [wanted = node](const NodeUsage& n) { return n.node == wanted; });
            if (it != usage.nodes.end()) it->pinned_bytes = bytes;
        }
    }
    usage.h2d_bytes = h2d_bytes_.load(std::memory_order_relaxed);
    usage.cross_node_h2d_bytes = cross_node_h2d_bytes_.load(std::memory_order_relaxed);
    usage.host_copy_bytes = host_copy_bytes_.load(std::memory_order_relaxed);
    usage.cross_node_host_copy_bytes = cross_node_host_copy_bytes_.load(std::memory_order_relaxed);
    return usage;
}

std::vector<NodeUsage> NumaTracker::peak_pinned() const {
    std::lock_guard lock(mutex_);
    std::vector<NodeUsage> peaks;
    if (plan_ != nullptr)
        for (const TopologyNode& node : plan_->topology->nodes) {
            const auto it = peak_.find(node.os_index);
            peaks.push_back({node.os_index, it == peak_.end() ? 0 : it->second});
        }
    return peaks;
}

}  // namespace pinscope
