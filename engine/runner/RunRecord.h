#pragma once
// What a run leaves behind: its summary, and (when kept) every span, counter sample and marker.
// Exporters write these; the CLI prints the summary.
#include <cstdint>
#include <string>
#include <vector>

#include "config/LoaderConfig.h"
#include "device/Device.h"
#include "memory/PinnedPool.h"
#include "metrics/Metrics.h"
#include "trace/Trace.h"

namespace pinscope {

struct RunSummary {
    LoaderConfig config;           // the configuration in force at the end
    DeviceInfo device;
    HostMode host = HostMode::Modeled;
    Metrics metrics;               // whole run
    PoolStats pinned;              // pinned_peak_bytes = pinned.reserved_bytes.peak
    std::uint64_t memlock_limit_bytes = 0;  // RLIMIT_MEMLOCK; UINT64_MAX when unlimited
    std::uint64_t dropped_spans = 0;        // spans overwritten before they were read
    std::uint32_t reconfigurations = 0;
    std::vector<std::string> warnings;
    std::string error;             // empty unless the run failed
};

struct RunRecord {
    RunSummary summary;
    TimeNs origin = 0;             // time zero of exports: the run's start
    std::vector<Span> spans;       // in the order they were recorded
    std::vector<CounterSample> counters;
    std::vector<Marker> markers;
};

}  // namespace pinscope
