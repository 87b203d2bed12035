// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a run leaves behind: its summary, and every span, counter sample and marker where a
// RunRecorder or the window keeps them in memory. Exporters write these; the CLI prints the summary.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/analysis/Advice.h"
#include "engine/analysis/Bottleneck.h"
#include "engine/analysis/MemoryPressure.h"
#include "engine/analysis/RunSegment.h"
#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/memory/PinnedPool.h"
#include "engine/metrics/Metrics.h"
#include "engine/numa/NumaUsage.h"
#include "engine/trace/Trace.h"

namespace pinscope {

// Where the run was, NUMA-wise; the policies are the configuration's.
struct NumaSummary {
    std::string topology_source;   // "this machine", or the loaded topology (file or shipped name)
    bool from_file = false;        // a loaded topology: placement is modelled
    std::string gpu_name;          // the run's GPU on the topology, "" when not on it
    NumaUsage usage;               // at the end (or now): pinned bytes in use by node, traffic so far
    std::vector<NodeUsage> pinned_peak;  // each node's most pinned bytes in use at once
};

inline constexpr double kModelLagNoted = 0.05;

struct RunSummary {
    LoaderConfig config;           // the configuration in force at the end (each segment has its own)
    DeviceInfo device;
    HostMode host = HostMode::Modeled;
    Metrics metrics;               // whole run
    Bottleneck bottleneck;         // whole run: what bounded throughput, from the spans
    std::vector<Advice> advice;    // what to try, best first: set after the run by whoever asked (advise())
    PoolStats pinned;              // pinned_peak_bytes = pinned.reserved_bytes.peak
    std::uint64_t memlock_limit_bytes = 0;  // RLIMIT_MEMLOCK; UINT64_MAX when unlimited
    bool memlock_exempt = false;            // the process has CAP_IPC_LOCK: the limit does not apply
    std::uint64_t dropped_spans = 0;        // spans overwritten before they were read
    // With the host modelled: how late this machine's threads came to modelled work, all together,
    // as a share of the run's wall time (0 when it kept up); above kModelLagNoted the figures are
    // lower than the profile predicts.
    double model_lag = 0;
    std::uint32_t reconfigurations = 0;
    // The run's stretches under one configuration, in time order: one, and one more per
    // reconfiguration; the last up to the end (or now). Together they cover the whole run.
    std::vector<RunSegment> segments;
    std::vector<std::string> warnings;
    std::string error;             // empty unless the run failed
    NumaSummary numa{};
    // The machine's memory against what the run may still take, every 100 ms (live runs only).
    MemoryPressure memory{};
};

// The NUMA footprint at one moment: pinned bytes in use by node and the cross-node bytes so far.
struct NumaSample {
    TimeNs time = 0;
    std::vector<NodeUsage> pinned;
    std::uint64_t cross_node_h2d_bytes = 0;
    std::uint64_t cross_node_host_copy_bytes = 0;
};

struct RunRecord {
    RunSummary summary;
    TimeNs origin = 0;             // time zero of exports: the run's start
    std::vector<Span> spans;       // in the order they were recorded
    std::vector<CounterSample> counters;
    std::vector<Marker> markers;
    std::vector<NumaSample> numa_samples{};  // sampled with the counters
};

}  // namespace pinscope
