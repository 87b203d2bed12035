// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordedSummary.h"

#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigJson.h"
#include "engine/metrics/MetricFields.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

using nlohmann::json;

// The value at `key`, as T; the error names the key.
template <typename T>
T get(const json& object, const char* key) {
    try {
        return object.at(key).get<T>();
    } catch (const json::exception&) {
        throw std::runtime_error(std::string("summary key '") + key + "' is missing or not of its kind");
    }
}

const json& object_at(const json& object, const char* key) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_object())
        throw std::runtime_error(std::string("summary key '") + key + "' is missing or not an object");
    return *found;
}

std::string text_or_empty(const json& object, const char* key) {
    const auto found = object.find(key);
    return found == object.end() || found->is_null() ? std::string() : get<std::string>(object, key);
}

PoolStat pool_stat_from(const json& object, const char* key) {
    const json& stat = object_at(object, key);
    return {get<std::int64_t>(stat, "current"), get<std::int64_t>(stat, "peak"), get<std::int64_t>(stat, "allocated"),
            get<std::int64_t>(stat, "freed")};
}

DurationStat duration_stat_from(const json& object, const char* key) {
    const json& stat = object_at(object, key);
    return {get<double>(stat, "total"), get<double>(stat, "max"), get<std::uint64_t>(stat, "count")};
}

PoolStats pinned_from(const json& pinned) {
    PoolStats stats;
    stats.allocation = pool_stat_from(pinned, "allocation");
    stats.segment = pool_stat_from(pinned, "segment");
    stats.allocated_bytes = pool_stat_from(pinned, "allocated_bytes");
    stats.reserved_bytes = pool_stat_from(pinned, "reserved_bytes");
    stats.num_host_alloc = get<std::uint64_t>(pinned, "num_host_alloc");
    stats.num_host_free = get<std::uint64_t>(pinned, "num_host_free");
    stats.host_alloc_time = duration_stat_from(pinned, "host_alloc_time_us");
    stats.host_free_time = duration_stat_from(pinned, "host_free_time_us");
    stats.cache_hits = get<std::uint64_t>(pinned, "cache_hits");
    stats.budget_waits = get<std::uint64_t>(pinned, "budget_waits");
    stats.budget_bytes = get<std::uint64_t>(pinned, "budget_bytes");
    stats.locked = get<bool>(pinned, "locked");
    return stats;
}

DeviceInfo device_from(const json& device) {
    DeviceInfo info;
    info.kind = device_kind_from_text(get<std::string>(device, "kind"));
    info.name = get<std::string>(device, "name");
    info.profile = get<std::string>(device, "profile");
    info.detail = get<std::string>(device, "detail");
    info.pci_bus_id = get<std::string>(device, "pci_bus_id");
    return info;
}

NumaSummary numa_from(const json& numa) {
    NumaSummary summary;
    summary.topology_source = get<std::string>(numa, "topology_source");
    summary.from_file = get<bool>(numa, "from_file");
    summary.gpu_name = get<std::string>(numa, "gpu_name");
    NumaUsage& usage = summary.usage;
    usage.modelled = get<bool>(numa, "modelled");
    usage.gpu_pci_bus_id = text_or_empty(numa, "gpu_pci_bus_id");
    const auto node = numa.find("gpu_node");
    usage.gpu_node = node == numa.end() || node->is_null() ? -1 : get<int>(numa, "gpu_node");
    const auto nodes = numa.find("nodes");
    if (nodes == numa.end() || !nodes->is_array()) throw std::runtime_error("summary key 'nodes' is missing or not a list");
    for (const json& entry : *nodes) {
        const int os_index = get<int>(entry, "node");
        usage.nodes.push_back({os_index, get<std::uint64_t>(entry, "pinned_in_use_bytes")});
        summary.pinned_peak.push_back({os_index, get<std::uint64_t>(entry, "pinned_peak_bytes")});
    }
    usage.h2d_bytes = get<std::uint64_t>(numa, "h2d_bytes");
    usage.cross_node_h2d_bytes = get<std::uint64_t>(numa, "cross_node_h2d_bytes");
    usage.host_copy_bytes = get<std::uint64_t>(numa, "host_copy_bytes");
    usage.cross_node_host_copy_bytes = get<std::uint64_t>(numa, "cross_node_host_copy_bytes");
    return summary;
}

Metrics metrics_from(const json& summary) {
    Metrics metrics;
    for (const MetricField& field : metric_fields())
        field.set(metrics, field.kind == MetricKind::Count ? static_cast<double>(get<std::uint64_t>(summary, field.key))
                                                           : get<double>(summary, field.key));
    return metrics;
}

}  // namespace

DeviceKind device_kind_from_text(const std::string& text) {
    for (const DeviceKind kind : {DeviceKind::Auto, DeviceKind::Emulated, DeviceKind::Cuda})
        if (text == to_string(kind)) return kind;
    throw std::runtime_error("unknown device kind '" + printable(text) + "'");
}

HostMode host_mode_from_text(const std::string& text) {
    if (const auto mode = parse_host_mode(text)) return *mode;
    throw std::runtime_error("unknown host mode '" + printable(text) + "'");
}

Resource resource_from(const json& object) {
    const std::string name = get<std::string>(object, "resource");
    for (int i = 0; i <= static_cast<int>(Resource::PinnedBudget); ++i)
        if (to_string(static_cast<Resource>(i)) == name) return static_cast<Resource>(i);
    throw std::runtime_error("unknown resource '" + printable(name) + "'");
}

Bottleneck bottleneck_from_json(const json& object) {
    Bottleneck b;
    b.resource = resource_from(object);
    for (const json& use : get<std::vector<json>>(object, "resources"))
        b.resources.push_back({resource_from(use), get<std::string>(use, "name"), get<double>(use, "utilisation"),
                               get<double>(use, "per_batch_s"), get<std::uint32_t>(use, "lanes"),
                               get<double>(use, "bound_batches_per_s")});
    b.saturated = get<bool>(object, "saturated");
    b.utilisation = get<double>(object, "utilisation");
    b.per_batch_s = get<double>(object, "per_batch_s");
    b.bound_batches_per_s = get<double>(object, "bound_batches_per_s");
    b.evidence = get<std::string>(object, "evidence");
    return b;
}

// The bottleneck as summary.json says it (each resource's batch count is not in it). Absent in
// summaries written before there was one.
Bottleneck bottleneck_from(const json& summary) {
    const auto found = summary.find("bottleneck");
    if (found == summary.end() || !found->is_object()) return {};
    return bottleneck_from_json(*found);
}

std::vector<Advice> advice_from(const json& summary) {
    std::vector<Advice> advice;
    const auto found = summary.find("advice");
    if (found == summary.end() || !found->is_array()) return advice;
    for (const json& a : *found) {
        if (!a.is_object() || !a.contains("value")) throw std::runtime_error("an advice entry is not an object with a value");
        advice.push_back({{get<std::string>(a, "key"), a.at("value").dump(), get<std::string>(a, "why")},
                          get<double>(a, "predicted_batches_per_s"),
                          get<double>(a, "baseline_predicted_batches_per_s")});
    }
    return advice;
}

RunSummary summary_from_json(const json& summary) {
    if (!summary.is_object()) throw std::runtime_error("the summary is not a JSON object");
    RunSummary s;
    s.config = config_from_json(object_at(summary, "config"));
    s.device = device_from(object_at(summary, "device"));
    s.host = host_mode_from_text(get<std::string>(summary, "host"));
    s.metrics = metrics_from(summary);
    s.pinned = pinned_from(object_at(summary, "pinned"));
    const auto memlock = summary.find("memlock_limit_bytes");
    s.memlock_limit_bytes = memlock == summary.end() || memlock->is_null()
                                ? std::numeric_limits<std::uint64_t>::max()
                                : get<std::uint64_t>(summary, "memlock_limit_bytes");
    s.dropped_spans = get<std::uint64_t>(summary, "dropped_spans");
    s.model_lag = get<double>(summary, "model_lag");
    s.reconfigurations = get<std::uint32_t>(summary, "reconfigurations");
    s.warnings = get<std::vector<std::string>>(summary, "warnings");
    s.error = text_or_empty(summary, "error");
    s.numa = numa_from(object_at(summary, "numa"));
    s.bottleneck = bottleneck_from(summary);
    s.advice = advice_from(summary);
    return s;
}

}  // namespace pinscope
