// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/metrics/MetricFields.h"

#include <array>
#include <type_traits>

#include "engine/text/Units.h"

namespace pinscope {
namespace {

template <auto Member>
double get_member(const Metrics& metrics) {
    return static_cast<double>(metrics.*Member);
}

template <auto Member>
void set_member(Metrics& metrics, double value) {
    using Value = std::remove_cvref_t<decltype(metrics.*Member)>;
    metrics.*Member = static_cast<Value>(value);
}

template <auto Member>
constexpr MetricField field(const char* key, const char* label, const char* unit, int decimals, MetricKind kind) {
    return {key, label, unit, decimals, kind, &get_member<Member>, &set_member<Member>};
}

constexpr std::array kFields{
    field<&Metrics::batches_per_s>("batches_per_s", "batches/s", "", 1, MetricKind::Rate),
    field<&Metrics::samples_per_s>("samples_per_s", "samples/s", "", 1, MetricKind::Rate),
    field<&Metrics::h2d_gb_per_s>("h2d_gb_per_s", "H2D", "GB/s", 2, MetricKind::Rate),
    field<&Metrics::gpu_busy>("gpu_busy", "GPU busy", "%", 1, MetricKind::Share),
    field<&Metrics::copy_hidden>("copy_hidden", "copy hidden", "%", 1, MetricKind::Share),
    field<&Metrics::gpu_starved>("gpu_starved", "GPU starved", "%", 1, MetricKind::Share),
    field<&Metrics::gpu_starved_copy>("gpu_starved_copy", "  waiting on the copy", "%", 1, MetricKind::Share),
    field<&Metrics::gpu_starved_host>("gpu_starved_host", "  waiting on the host", "%", 1, MetricKind::Share),
    field<&Metrics::consumer_wait>("consumer_wait", "consumer wait", "%", 1, MetricKind::Share),
    field<&Metrics::host_held>("host_held", "host held", "%", 1, MetricKind::Share),
    field<&Metrics::batches>("batches", "batches", "", 0, MetricKind::Count),
    field<&Metrics::samples>("samples", "samples", "", 0, MetricKind::Count),
    field<&Metrics::h2d_bytes>("h2d_bytes", "H2D moved", "GiB", 2, MetricKind::Bytes),
    field<&Metrics::wall_s>("wall_s", "wall time", "s", 2, MetricKind::Seconds),
};

}  // namespace

double MetricField::shown(const Metrics& metrics) const {
    const double value = get(metrics);
    if (kind == MetricKind::Share) return value * 100;
    if (kind == MetricKind::Bytes) return value / static_cast<double>(kGiB);
    return value;
}

std::span<const MetricField> metric_fields() { return kFields; }

}  // namespace pinscope
