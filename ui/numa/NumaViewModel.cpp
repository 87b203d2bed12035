// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/numa/NumaViewModel.h"

#include <algorithm>
#include <map>
#include <optional>

#include "ui/model/SpanStore.h"

namespace pinscope::ui {

namespace {

constexpr double kMinRateSpanS = 0.2;  // shorter differences are too noisy to show as a rate

std::optional<HostLane> host_lane_of(LaneKind kind) {
    switch (kind) {
        case LaneKind::Worker: return HostLane::Workers;
        case LaneKind::PinThread: return HostLane::PinThread;
        case LaneKind::Consumer: return HostLane::Consumer;
        case LaneKind::CopyStream:
        case LaneKind::ComputeStream: return std::nullopt;
    }
    return std::nullopt;
}

// Waiting for a batch or for the device keeps the thread where it is but not busy.
bool keeps_thread_busy(Stage stage) { return stage != Stage::Wait && stage != Stage::Sync; }

RunGpu find_run_gpu(const MachineTopology& topology, const NumaInputs& in) {
    RunGpu gpu;
    gpu.pci_bus_id = in.usage.gpu_pci_bus_id.empty() ? in.device_pci_bus_id : in.usage.gpu_pci_bus_id;
    gpu.name = in.device_name;
    if (const TopologyGpu* g = gpu.pci_bus_id.empty() ? nullptr : topology.find_gpu(gpu.pci_bus_id)) {
        gpu.in_topology = true;
        gpu.pci_bus_id = g->pci_bus_id;
        if (!g->name.empty()) gpu.name = g->name;
        gpu.node = g->node;
    }
    if (in.usage.gpu_node >= 0) gpu.node = in.usage.gpu_node;
    // With one node, whatever the GPU is, it is local to that node.
    if (gpu.node < 0 && topology.nodes.size() == 1) gpu.node = topology.nodes.front().os_index;
    return gpu;
}

// Per lane kind and CPU, nanoseconds busy in [from, to], and every CPU seen at all.
std::array<std::vector<CpuUse>, kHostLaneCount> lane_use(const SpanStore& spans, TimeNs from, TimeNs to) {
    std::array<std::map<int, TimeNs>, kHostLaneCount> busy;
    for (const LaneSpans& lane : spans.lanes()) {
        const auto kind = host_lane_of(lane.lane.kind);
        if (!kind) continue;
        auto& per_cpu = busy[static_cast<std::size_t>(*kind)];
        for (std::size_t i = SpanStore::first_ending_after(lane, from); i < lane.spans.size(); ++i) {
            const Span& s = lane.spans[i];
            if (s.start > to) break;
            if (s.cpu < 0 || s.end < from) continue;
            TimeNs& ns = per_cpu[s.cpu];  // present even when only waiting there
            if (keeps_thread_busy(s.stage)) ns += std::min(s.end, to) - std::max(s.start, from);
        }
    }
    const double window = static_cast<double>(std::max<TimeNs>(to - from, 1));
    std::array<std::vector<CpuUse>, kHostLaneCount> out;
    for (std::size_t k = 0; k < busy.size(); ++k)
        for (const auto& [cpu, ns] : busy[k]) out[k].push_back({cpu, std::clamp(static_cast<double>(ns) / window, 0.0, 1.0)});
    return out;
}

}  // namespace

LaneKind lane_kind_of(HostLane lane) {
    switch (lane) {
        case HostLane::Workers: return LaneKind::Worker;
        case HostLane::PinThread: return LaneKind::PinThread;
        case HostLane::Consumer: return LaneKind::Consumer;
    }
    return LaneKind::Consumer;
}

double Traffic::cross_share() const {
    if (rate_known && bytes_per_s > 0) return std::clamp(cross_bytes_per_s / bytes_per_s, 0.0, 1.0);
    return bytes == 0 ? 0 : std::clamp(static_cast<double>(cross_bytes) / static_cast<double>(bytes), 0.0, 1.0);
}

std::uint64_t NumaSnapshot::pinned_total() const {
    std::uint64_t total = 0;
    for (const NodeState& n : nodes) total += n.pinned_bytes;
    return total;
}

const NodeState* NumaSnapshot::node(int os_index) const {
    for (const NodeState& n : nodes)
        if (n.node == os_index) return &n;
    return nullptr;
}

bool NumaSnapshot::is_run_gpu(int index) const {
    return gpu.in_topology && topology && index >= 0 && index < static_cast<int>(topology->gpus.size()) &&
           topology->gpus[static_cast<std::size_t>(index)].pci_bus_id == gpu.pci_bus_id;
}

double NumaSnapshot::busy_on(HostLane lane, int cpu) const {
    const auto& uses = lanes[static_cast<std::size_t>(lane)];
    const auto it = std::lower_bound(uses.begin(), uses.end(), cpu, [](const CpuUse& u, int c) { return u.cpu < c; });
    return it != uses.end() && it->cpu == cpu ? it->busy : -1;
}

void NumaViewModel::reset() {
    history_.clear();
    snapshot_ = {};
    taken_ = {};
    recent_.clear();
}

void NumaViewModel::take(const RunFrame& frame) {
    if (frame.first) reset();
    std::vector<Span> host;
    for (const Span& span : frame.spans)
        if (!is_device_lane(span.lane.kind)) host.push_back(span);
    recent_.add(host);
    const DeviceInfo& device = frame.summary.device;
    taken_.topology = frame.topology;
    taken_.usage = frame.summary.numa.usage;
    taken_.device_pci_bus_id = device.pci_bus_id;
    taken_.device_name = device.kind == DeviceKind::Cuda ? device.name : "emulated " + device.profile;
    taken_.now_s = frame.seconds();
    taken_.run_ended = frame.ended;
    taken_.pinned_peak_bytes = frame.summary.pinned.reserved_bytes.peak;
}

const NumaSnapshot& NumaViewModel::update() { return update(taken_, recent_); }

void NumaViewModel::update_rates(const NumaInputs& in) {
    const NumaUsage& u = in.usage;
    const UsageSample now{in.now_s, u.h2d_bytes, u.cross_node_h2d_bytes, u.host_copy_bytes, u.cross_node_host_copy_bytes};
    // Counters only grow within a run: anything else is a new run (or a new topology).
    if (!history_.empty() && (now.time_s < history_.back().time_s || now.h2d < history_.back().h2d ||
                              now.host_copy < history_.back().host_copy))
        history_.clear();
    if (!history_.empty() && now.time_s == history_.back().time_s) history_.back() = now;
    else history_.push_back(now);
    // Keep one sample at least kWindowS old, so that the difference spans about a second.
    while (history_.size() > 2 && history_[1].time_s <= now.time_s - kWindowS) history_.pop_front();

    const UsageSample& then = history_.front();
    const double dt = now.time_s - then.time_s;
    const bool known = dt >= kMinRateSpanS;
    const auto rate = [&](std::uint64_t a, std::uint64_t b) { return known ? static_cast<double>(a - b) / dt : 0.0; };
    snapshot_.h2d = {now.h2d, now.cross_h2d, known, rate(now.h2d, then.h2d), rate(now.cross_h2d, then.cross_h2d)};
    snapshot_.host_copy = {now.host_copy, now.cross_host_copy, known, rate(now.host_copy, then.host_copy),
                           rate(now.cross_host_copy, then.cross_host_copy)};
}

const NumaSnapshot& NumaViewModel::update(const NumaInputs& in, const SpanStore& spans) {
    if (!in.topology) {
        reset();
        return snapshot_;
    }
    if (snapshot_.topology != in.topology) history_.clear();
    snapshot_.topology = in.topology;
    const MachineTopology& topology = *in.topology;
    snapshot_.gpu = find_run_gpu(topology, in);
    snapshot_.modelled = in.usage.modelled;
    snapshot_.run_ended = in.run_ended;
    snapshot_.pinned_peak_bytes = in.pinned_peak_bytes;

    snapshot_.nodes.clear();
    for (const TopologyNode& n : topology.nodes) {
        NodeState state{n.os_index, n.memory_bytes, 0, n.os_index == snapshot_.gpu.node};
        for (const NodeUsage& used : in.usage.nodes)
            if (used.node == n.os_index) state.pinned_bytes = used.pinned_bytes;
        snapshot_.nodes.push_back(state);
    }

    const TimeNs to = spans.latest_end();
    const TimeNs from = to - static_cast<TimeNs>(kWindowS * 1e9);
    snapshot_.lanes = spans.empty() ? decltype(snapshot_.lanes){} : lane_use(spans, from, to);
    update_rates(in);

    snapshot_.cross_sources.clear();
    const bool crossing = snapshot_.h2d.cross_bytes > 0 && snapshot_.gpu_node_known();
    if (crossing) {
        for (const NodeState& n : snapshot_.nodes)
            if (!n.gpu_local && n.pinned_bytes > 0) snapshot_.cross_sources.push_back(n.node);
        if (snapshot_.cross_sources.empty())
            for (const CpuUse& use : snapshot_.lanes[static_cast<std::size_t>(HostLane::Workers)]) {
                const int node = topology.node_of_cpu(use.cpu);
                if (node >= 0 && node != snapshot_.gpu.node &&
                    std::find(snapshot_.cross_sources.begin(), snapshot_.cross_sources.end(), node) ==
                        snapshot_.cross_sources.end())
                    snapshot_.cross_sources.push_back(node);
            }
        if (snapshot_.cross_sources.empty())
            for (const NodeState& n : snapshot_.nodes)
                if (!n.gpu_local) snapshot_.cross_sources.push_back(n.node);
        std::sort(snapshot_.cross_sources.begin(), snapshot_.cross_sources.end());
    }
    return snapshot_;
}

}  // namespace pinscope::ui
