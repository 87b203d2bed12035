// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/SummaryJson.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/BuildConfig.h"
#include "engine/config/ConfigJson.h"
#include "engine/export/ExportFormat.h"
#include "engine/metrics/MetricFields.h"
#include "engine/text/Units.h"

namespace pinscope {

namespace {

using nlohmann::json;

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kMaxWarningLines = 4;  // with the metric rows, the summary stays under 25 lines

// Ratios of measured times can overshoot 1 by rounding; a fraction is shown as one.
double fraction(double value) { return std::clamp(value, 0.0, 1.0); }

json pool_stat_json(const PoolStat& stat) {
    return {{"current", stat.current}, {"peak", stat.peak}, {"allocated", stat.allocated}, {"freed", stat.freed}};
}

json duration_stat_json(const DurationStat& stat) {
    const double avg = stat.count > 0 ? stat.total_us / static_cast<double>(stat.count) : 0.0;
    return {{"total", stat.total_us}, {"max", stat.max_us}, {"count", stat.count}, {"avg", avg}};
}

json pinned_json(const PoolStats& stats) {
    return {
        {"allocation", pool_stat_json(stats.allocation)},
        {"segment", pool_stat_json(stats.segment)},
        {"allocated_bytes", pool_stat_json(stats.allocated_bytes)},
        {"reserved_bytes", pool_stat_json(stats.reserved_bytes)},
        {"num_host_alloc", stats.num_host_alloc},
        {"num_host_free", stats.num_host_free},
        {"host_alloc_time_us", duration_stat_json(stats.host_alloc_time)},
        {"host_free_time_us", duration_stat_json(stats.host_free_time)},
        {"cache_hits", stats.cache_hits},
        {"budget_waits", stats.budget_waits},
        {"budget_bytes", stats.budget_bytes},
        {"locked", stats.locked},
    };
}

json device_json(const DeviceInfo& device) {
    return {{"kind", to_string(device.kind)}, {"name", device.name}, {"profile", device.profile},
            {"detail", device.detail}, {"pci_bus_id", device.pci_bus_id}};
}

json numa_json(const RunSummary& summary) {
    const NumaSummary& numa = summary.numa;
    json nodes = json::array();
    for (const NodeUsage& node : numa.usage.nodes) {
        std::uint64_t peak = 0;
        for (const NodeUsage& p : numa.pinned_peak)
            if (p.node == node.node) peak = p.pinned_bytes;
        nodes.push_back({{"node", node.node}, {"pinned_in_use_bytes", node.pinned_bytes}, {"pinned_peak_bytes", peak}});
    }
    const LoaderConfig& config = summary.config;
    return {
        {"topology_source", numa.topology_source},
        {"from_file", numa.from_file},
        {"modelled", numa.usage.modelled},
        {"gpu_pci_bus_id", numa.usage.gpu_pci_bus_id.empty() ? json(nullptr) : json(numa.usage.gpu_pci_bus_id)},
        {"gpu_name", numa.gpu_name},
        {"gpu_node", numa.usage.gpu_node >= 0 ? json(numa.usage.gpu_node) : json(nullptr)},
        {"bind_workers", to_string(config.bind_workers)},
        {"bind_pin_thread", to_string(config.bind_pin_thread)},
        {"bind_consumer", to_string(config.bind_consumer)},
        {"membind", to_string(config.membind)},
        {"nodes", nodes},
        {"h2d_bytes", numa.usage.h2d_bytes},
        {"cross_node_h2d_bytes", numa.usage.cross_node_h2d_bytes},
        {"host_copy_bytes", numa.usage.host_copy_bytes},
        {"cross_node_host_copy_bytes", numa.usage.cross_node_host_copy_bytes},
    };
}

}  // namespace

nlohmann::json bottleneck_to_json(const Bottleneck& bottleneck) {
    json resources = json::array();
    for (const ResourceUse& use : bottleneck.resources) {
        resources.push_back({{"name", use.name},
                             {"resource", to_string(use.resource)},
                             {"utilisation", fraction(use.utilisation)},
                             {"per_batch_s", use.per_batch_s},
                             {"lanes", use.lanes},
                             {"bound_batches_per_s", use.bound_batches_per_s}});
    }
    return {{"resource", to_string(bottleneck.resource)},
            {"saturated", bottleneck.saturated},
            {"utilisation", fraction(bottleneck.utilisation)},
            {"per_batch_s", bottleneck.per_batch_s},
            {"bound_batches_per_s", bottleneck.bound_batches_per_s},
            {"evidence", bottleneck.evidence},
            {"resources", resources}};
}

namespace {

// Each change as the configuration key and its JSON value, with the emulated device's prediction.
json advice_json(const std::vector<Advice>& advice) {
    json list = json::array();
    for (const Advice& a : advice) {
        list.push_back({{"key", a.change.key},
                        {"value", json::parse(a.change.value, nullptr, false)},
                        {"why", a.change.why},
                        {"predicted_batches_per_s", a.predicted_batches_per_s},
                        {"baseline_predicted_batches_per_s", a.baseline_batches_per_s}});
    }
    return list;
}

std::string mib(double bytes) { return format_fixed(bytes / static_cast<double>(kMiB), 1) + " MiB"; }
std::string gib(double bytes) { return format_fixed(bytes / static_cast<double>(kGiB), 1) + " GiB"; }
std::string percent(double value) { return format_fixed(100.0 * fraction(value), 1) + " %"; }
std::string on_off(bool value) { return value ? "on" : "off"; }

std::string memlock_text(std::uint64_t limit) {
    return limit == kUnlimited ? "unlimited" : mib(static_cast<double>(limit));
}

std::string device_line(const RunSummary& summary) {
    const DeviceInfo& device = summary.device;
    std::string line = std::string(to_string(device.kind)) + ": " + device.name;
    if (!device.profile.empty()) line += " (profile " + device.profile + ")";
    if (!device.detail.empty()) line += ", " + device.detail;
    return line + ", host " + to_string(summary.host);
}

std::string config_line(const LoaderConfig& config) {
    std::string line = "batch " + std::to_string(config.batch_size) + "x" + shape_to_string(config.sample_shape) +
                       " " + to_string(config.dtype) + " (" +
                       memory_text(static_cast<double>(config.batch_bytes())) + "), workers " +
                       std::to_string(config.num_workers);
    if (config.num_workers > 0) line += ", prefetch " + std::to_string(config.effective_prefetch_factor());
    line += ", pin_memory " + on_off(config.pin_memory);
    if (config.pin_memory) line += " (" + to_string(config.pin_mode) + ")";
    return line + ", non_blocking " + on_off(config.non_blocking) + ", copy_stream " + to_string(config.copy_stream);
}

// Messages may span lines; the summary gives each one line.
std::string one_line(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

void row(std::ostream& out, const std::string& label, const std::string& value) {
    out << label << std::string(label.size() < 16 ? 16 - label.size() : 1, ' ') << value << '\n';
}

void write_metric_rows(std::ostream& out, const Metrics& metrics) {
    row(out, "batches", std::to_string(metrics.batches));
    row(out, "wall time", format_fixed(metrics.wall_s, 3) + " s");
    row(out, "batches/s", format_fixed(metrics.batches_per_s, 1));
    row(out, "samples/s", format_fixed(metrics.samples_per_s, 1));
    row(out, "H2D GB/s", format_fixed(metrics.h2d_gb_per_s, 2));
    row(out, "GPU busy", percent(metrics.gpu_busy));
    row(out, "copy hidden", percent(metrics.copy_hidden));
    row(out, "GPU starved",
        percent(metrics.gpu_starved) + " (copy " + percent(metrics.gpu_starved_copy) + ", host " +
            percent(metrics.gpu_starved_host) + ")");
    row(out, "consumer wait", percent(metrics.consumer_wait));
    row(out, "host held", percent(metrics.host_held));
}

void write_pinned_rows(std::ostream& out, const RunSummary& summary) {
    const PoolStats& pinned = summary.pinned;
    row(out, "pinned peak",
        mib(static_cast<double>(pinned.reserved_bytes.peak)) + ", in use peak " +
            mib(static_cast<double>(pinned.allocated_bytes.peak)) + ", budget " +
            gib(static_cast<double>(pinned.budget_bytes)) + ", memlock " + memlock_text(summary.memlock_limit_bytes));
    row(out, "pinned locked", pinned.locked ? "yes" : "no");
    row(out, "cache hits", std::to_string(pinned.cache_hits));
    row(out, "allocations", std::to_string(pinned.num_host_alloc));
}

std::string share(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? "-" : percent(static_cast<double>(part) / static_cast<double>(whole));
}

// Where the run was: the topology and the GPU's node, the policies, pinned bytes by node and the
// traffic that crossed nodes. Returns the rows written.
std::size_t write_numa_rows(std::ostream& out, const RunSummary& summary) {
    const NumaSummary& numa = summary.numa;
    if (numa.topology_source.empty()) return 0;
    const NumaUsage& usage = numa.usage;
    std::string where = numa.topology_source + (numa.from_file ? ", loaded: placement modelled" : "");
    if (usage.nodes.size() == 1) where += ", one NUMA node";
    if (usage.gpu_pci_bus_id.empty())
        where += "; GPU not located on it";
    else
        where += "; GPU " + usage.gpu_pci_bus_id + (numa.gpu_name.empty() ? "" : " (" + numa.gpu_name + ")") +
                 (usage.gpu_node >= 0 ? " on node " + std::to_string(usage.gpu_node) : ", node unknown");
    row(out, "topology", where);
    const LoaderConfig& c = summary.config;
    row(out, "NUMA policy", "workers " + to_string(c.bind_workers) + ", pin thread " + to_string(c.bind_pin_thread) +
                                ", consumer " + to_string(c.bind_consumer) + ", membind " + to_string(c.membind));
    std::string pinned;
    for (const NodeUsage& node : numa.pinned_peak)
        pinned += (pinned.empty() ? "" : ", ") + std::string("node ") + std::to_string(node.node) + " " +
                  mib(static_cast<double>(node.pinned_bytes));
    row(out, "pinned by node", "peak " + (pinned.empty() ? std::string("-") : pinned) + "; cross-node H2D " +
                                   share(usage.cross_node_h2d_bytes, usage.h2d_bytes) + ", host copies " +
                                   share(usage.cross_node_host_copy_bytes, usage.host_copy_bytes));
    return 3;
}

// Rare events get a row only when they happened, and warnings are capped to keep one screen.
void write_notes(std::ostream& out, const RunSummary& summary, std::size_t max_warnings) {
    if (summary.reconfigurations > 0) {
        row(out, "reconfigured",
            std::to_string(summary.reconfigurations) + (summary.reconfigurations == 1 ? " time" : " times"));
    }
    if (summary.dropped_spans > 0) row(out, "dropped spans", std::to_string(summary.dropped_spans));
    if (summary.model_lag > kModelLagNoted)
        row(out, "model lag", percent(summary.model_lag) + " of the run: this machine could not keep up with the model, "
                              "so the figures are lower than the profile predicts");
    const std::size_t shown = std::min(summary.warnings.size(), max_warnings);
    for (std::size_t i = 0; i < shown; ++i) out << "warning: " << one_line(summary.warnings[i]) << '\n';
    if (summary.warnings.size() > shown)
        out << "(" << std::to_string(summary.warnings.size() - shown) << " more warnings)\n";
    if (!summary.error.empty()) out << "error: " << one_line(summary.error) << '\n';
}

// Every figure of the metric table under its key, shares clamped into 0..1.
void put_metrics(json& object, const Metrics& metrics) {
    for (const MetricField& field : metric_fields()) {
        const double value = field.get(metrics);
        if (field.kind == MetricKind::Count)
            object[field.key] = static_cast<std::uint64_t>(value);
        else
            object[field.key] = field.kind == MetricKind::Share ? fraction(value) : value;
    }
}

// Times in seconds from the run's origin (the first segment's begin).
json segments_json(const std::vector<RunSegment>& segments) {
    json list = json::array();
    const TimeNs origin = segments.empty() ? 0 : segments.front().begin;
    for (const RunSegment& segment : segments) {
        json entry = {
            {"index", segment.index},
            {"start_s", segment.begin_s(origin)},
            {"end_s", segment.end_s(origin)},
            {"change", segment.change.empty() ? json(nullptr) : json(segment.change)},
            {"config", to_json(segment.config)},
            {"pinned_peak_bytes", segment.pinned_peak_bytes},
            {"pinned_in_use_peak_bytes", segment.pinned_in_use_peak_bytes},
            {"host_allocations", segment.host_allocations},
            {"cache_hits", segment.cache_hits},
            {"bottleneck", bottleneck_to_json(segment.bottleneck)},
        };
        put_metrics(entry, segment.metrics);
        list.push_back(std::move(entry));
    }
    return list;
}

}  // namespace

nlohmann::json summary_to_json(const RunSummary& summary) {
    json out = {
        {"pinscope_version", PINSCOPE_VERSION},
        {"pinned_peak_bytes", summary.pinned.reserved_bytes.peak},
        {"pinned_in_use_peak_bytes", summary.pinned.allocated_bytes.peak},
        {"device", device_json(summary.device)},
        {"host", to_string(summary.host)},
        {"config", to_json(summary.config)},
        {"pinned", pinned_json(summary.pinned)},
        {"memlock_limit_bytes",
         summary.memlock_limit_bytes == kUnlimited ? json(nullptr) : json(summary.memlock_limit_bytes)},
        {"dropped_spans", summary.dropped_spans},
        {"model_lag", fraction(summary.model_lag)},
        {"reconfigurations", summary.reconfigurations},
        {"warnings", summary.warnings},
        {"error", summary.error.empty() ? json(nullptr) : json(summary.error)},
        {"numa", numa_json(summary)},
        {"bottleneck", bottleneck_to_json(summary.bottleneck)},
        {"advice", advice_json(summary.advice)},
        {"segments", segments_json(summary.segments)},
    };
    put_metrics(out, summary.metrics);
    return out;
}

std::string format_summary(const RunSummary& summary) {
    std::ostringstream out;
    row(out, "device", device_line(summary));
    row(out, "config", config_line(summary.config));
    write_metric_rows(out, summary.metrics);
    write_pinned_rows(out, summary);
    // The NUMA rows take the place of warnings, so that the summary stays one screen.
    const std::size_t numa_rows = write_numa_rows(out, summary);
    write_notes(out, summary, kMaxWarningLines - std::min(numa_rows, kMaxWarningLines - 1));
    return out.str();
}

}  // namespace pinscope
