// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the NUMA view shows, worked out from the run's topology, the engine's NUMA usage and the
// newest spans: on which CPUs the workers, the pin thread and the consumer ran in the last second
// and how busy they were there, pinned bytes per node, and how much of the traffic crossed nodes,
// in all and per second. Plain C++ (no Qt); the window feeds it on its timer.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "engine/numa/NumaUsage.h"
#include "engine/runner/RunFrame.h"
#include "engine/topology/MachineTopology.h"
#include "engine/trace/Span.h"
#include "ui/adapter/FrameView.h"
#include "ui/model/SpanStore.h"

namespace pinscope::ui {


// The host threads the view marks, each kind in its own colour.
enum class HostLane : std::uint8_t { Workers, PinThread, Consumer };
inline constexpr int kHostLaneCount = 3;
LaneKind lane_kind_of(HostLane lane);

struct CpuUse {
    int cpu = -1;
    double busy = 0;  // share of the window its spans kept the thread working (waits excluded), 0..1
};

struct NodeState {
    int node = -1;                   // os_index
    std::uint64_t memory_bytes = 0;  // 0 when the topology does not say
    std::uint64_t pinned_bytes = 0;
    bool gpu_local = false;  // the run's GPU hangs off this node
};

// Bytes that went one way: all of them, and those that crossed nodes.
struct Traffic {
    std::uint64_t bytes = 0;        // whole run
    std::uint64_t cross_bytes = 0;  // whole run
    bool rate_known = false;        // two samples about a second apart
    double bytes_per_s = 0;
    double cross_bytes_per_s = 0;
    // Cross-node share over the last second when it moved bytes, else over the whole run; 0 without bytes.
    double cross_share() const;
};

// The GPU the run uses, found in the topology by its bus id.
struct RunGpu {
    std::string pci_bus_id;   // "" when unknown
    std::string name;         // from the topology, else the device's name
    int node = -1;            // os_index of its node, -1 when unknown
    bool in_topology = false; // false: an emulated device standing for no GPU of this topology
};

struct NumaSnapshot {
    std::shared_ptr<const MachineTopology> topology;  // null: not available yet
    RunGpu gpu;
    bool modelled = false;  // CPUs and pages where the policies put them, not read back
    std::array<std::vector<CpuUse>, kHostLaneCount> lanes;  // per kind, ascending cpu
    std::vector<NodeState> nodes;                            // one per topology node, ascending
    Traffic h2d;        // host-to-device copies; cross: from pages on another node than the GPU's
    Traffic host_copy;  // collate and pin copies; cross: by a thread on another node than the pages
    // Nodes the cross-node H2D comes from: those holding pinned pages away from the GPU, else (no
    // pinned pages: pageable batches, first-touched by the workers) those the workers ran on.
    std::vector<int> cross_sources;
    // The run has ended: its pinned memory is released (the nodes hold 0 bytes), its peak remains.
    bool run_ended = false;
    std::uint64_t pinned_peak_bytes = 0;

    bool gpu_node_known() const { return gpu.node >= 0; }
    // Whether the topology's GPU at `index` is the run's.
    bool is_run_gpu(int index) const;
    bool single_node() const { return topology && topology->single_node(); }
    std::uint64_t pinned_total() const;
    const NodeState* node(int os_index) const;
    // How busy `lane` was on `cpu` in the last second; negative when it did not run there.
    double busy_on(HostLane lane, int cpu) const;
};

struct NumaInputs {
    std::shared_ptr<const MachineTopology> topology;
    NumaUsage usage;
    std::string device_pci_bus_id;  // DeviceInfo::pci_bus_id, used while the usage has none
    std::string device_name;
    double now_s = 0;  // when this sample was taken (any origin): rates come from differences
    bool run_ended = false;
    std::uint64_t pinned_peak_bytes = 0;  // the pool's peak (reserved bytes) over the run
};

class NumaViewModel : public FrameView {
public:
    static constexpr double kWindowS = 1.0;  // marks and rates cover about this long
    static constexpr std::size_t kRecentSpans = 200'000;  // host spans kept: well over a second's worth

    void reset();
    // A frame of the run shown: its NUMA usage, device, topology and host spans, kept for update().
    void take(const RunFrame& frame) override;
    // The snapshot of the newest frame taken.
    const NumaSnapshot& update();
    // A new sample: the spans of the last kWindowS before the newest span mark the CPUs.
    const NumaSnapshot& update(const NumaInputs& inputs, const SpanStore& spans);
    const NumaSnapshot& snapshot() const { return snapshot_; }

private:
    struct UsageSample {
        double time_s = 0;
        std::uint64_t h2d = 0, cross_h2d = 0, host_copy = 0, cross_host_copy = 0;
    };
    void update_rates(const NumaInputs& inputs);

    std::deque<UsageSample> history_;
    NumaSnapshot snapshot_;
    NumaInputs taken_;
    SpanStore recent_{kRecentSpans};  // the host lanes' newest spans, from the frames taken
};

}  // namespace pinscope::ui
