// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/ConfigValidation.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include "engine/config/ConfigFields.h"
#include "engine/config/DeviceChoice.h"
#include "engine/config/PinnedBudget.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"
#include "engine/topology/MachineTopology.h"

namespace pinscope {

namespace config_detail {
std::string format_number(double value);  // defined in ConfigFields.cpp
}  // namespace config_detail

namespace {

using config_detail::format_number;

constexpr const ConfigField& kBatchSize = config_field(&LoaderConfig::batch_size);
constexpr const ConfigField& kSampleShape = config_field(&LoaderConfig::sample_shape);
constexpr const ConfigField& kWorkers = config_field(&LoaderConfig::num_workers);
constexpr const ConfigField& kPrefetch = config_field(&LoaderConfig::prefetch_factor);
constexpr const ConfigField& kCpuUs = config_field(&LoaderConfig::cpu_us_per_sample);
constexpr const ConfigField& kGpuUs = config_field(&LoaderConfig::gpu_us_per_batch);
constexpr const ConfigField& kBatches = config_field(&LoaderConfig::batches);
constexpr const ConfigField& kSeconds = config_field(&LoaderConfig::seconds);
constexpr const ConfigField& kPinnedBudget = config_field(&LoaderConfig::pinned_budget_bytes);

// Limits across fields: what one sample and one batch may take.
constexpr std::uint64_t kMaxSampleBytes = 4 * kGiB;
constexpr std::uint64_t kMaxBatchBytes = 64 * kGiB;

// Bytes in `unit`, rounded to one decimal: "1.5 GiB", "64 MiB".
std::string in_unit(std::uint64_t bytes, std::uint64_t unit, const char* name) {
    const double amount = std::round(static_cast<double>(bytes) / static_cast<double>(unit) * 10) / 10;
    return format_number(amount) + " " + name;
}

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    return b != 0 && a > max / b ? max : a * b;
}

class Checker {
public:
    void add(std::string field, std::string value, std::string allowed) {
        issues_.push_back(ConfigIssue{std::move(field), std::move(value), std::move(allowed)});
    }

    // A whole number in the field's range (named `name`, "sample_shape[1]", when not the field's
    // key). True when it is.
    bool integer(const ConfigField& field, std::uint64_t value, const std::string& name = "") {
        const auto [lo, hi] = integer_range(field);
        if (value >= lo && value <= hi) return true;
        add(name.empty() ? std::string(field.key) : name, std::to_string(value), allowed_text(field));
        return false;
    }

    // A finite number in the field's range.
    void number(const ConfigField& field, double value) {
        const FieldRange& range = *field.range;
        const bool above_lo = range.lo_exclusive ? value > range.lo : value >= range.lo;
        if (std::isfinite(value) && above_lo && value <= range.hi) return;
        add(std::string(field.key), format_number(value), allowed_text(field));
    }

    std::vector<ConfigIssue> take() { return std::move(issues_); }

private:
    std::vector<ConfigIssue> issues_;
};

bool check_shape(Checker& check, const std::vector<std::uint32_t>& shape) {
    if (shape.empty() || shape.size() > kMaxSampleDimensions) {
        check.add(std::string(kSampleShape.key), shape.empty() ? "[]" : shape_to_string(shape),
                  "a shape of 1 to " + std::to_string(kMaxSampleDimensions) + " dimensions");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < shape.size(); ++i)
        ok = check.integer(kSampleShape, shape[i], std::string(kSampleShape.key) + "[" + std::to_string(i) + "]") && ok;
    return ok;
}

// Needs a valid batch size and shape. True when the sample and the batch are not too large.
bool check_sizes(Checker& check, const LoaderConfig& config) {
    std::uint64_t sample = dtype_size(config.dtype);
    for (const std::uint32_t dim : config.sample_shape) sample = saturating_product(sample, dim);
    const std::string sample_desc = shape_to_string(config.sample_shape) + " " + to_string(config.dtype);
    if (sample > kMaxSampleBytes) {
        check.add(std::string(kSampleShape.key), shape_to_string(config.sample_shape),
                  "a sample of at most " + format_size_rounded(kMaxSampleBytes) + "; " + sample_desc + " is " +
                      format_size_rounded(sample));
        return false;
    }
    const std::uint64_t batch = sample * config.batch_size;
    if (batch > kMaxBatchBytes) {
        check.add(std::string(kBatchSize.key), std::to_string(config.batch_size),
                  "a batch of at most " + format_size_rounded(kMaxBatchBytes) + "; the batch would be " + format_size_rounded(batch) +
                      " (" + std::to_string(config.batch_size) + " samples of " + sample_desc + ")");
        return false;
    }
    return true;
}

bool check_prefetch(Checker& check, const LoaderConfig& config) {
    if (!config.prefetch_factor) return true;
    if (config.num_workers == 0) {
        check.add(std::string(kPrefetch.key), std::to_string(*config.prefetch_factor),
                  "unset when num_workers is 0 (PyTorch: prefetch_factor option could only be specified in "
                  "multiprocessing; let num_workers > 0 to enable it)");
        return false;
    }
    return check.integer(kPrefetch, *config.prefetch_factor);
}

void check_run_length(Checker& check, const LoaderConfig& config) {
    if (config.batches && config.seconds) {
        check.add("batches", std::to_string(*config.batches),
                  "one run length: give either batches or seconds, not both (seconds is " +
                      format_number(*config.seconds) + ")");
    } else if (config.batches) {
        check.integer(kBatches, *config.batches);
    } else if (config.seconds) {
        check.number(kSeconds, *config.seconds);
    } else {
        check.add("batches", "unset",
                  "a run length: batches (" + allowed_text(kBatches) + ") or seconds (" + allowed_text(kSeconds) + ")");
    }
}

void check_device(Checker& check, const std::string& device) {
    if (!parse_device(device))
        check.add("device", device.empty() ? "\"\"" : device,
                  "auto, emulated, emulated:<profile name or file>, cuda, or cuda:<N> with N from 0 to " +
                      std::to_string(kMaxCudaIndex));
}

void check_host(Checker& check, const LoaderConfig& config) {
    if (config.host == HostMode::Modeled && config.is_cuda())
        check.add("host", to_string(HostMode::Modeled),
                  "real or unset: modeled host needs the emulated device; the CUDA device always does the host "
                  "work for real");
}

// What needs no topology: the run's topology is checked when it is loaded (numa/NumaPlan.h).
void check_numa(Checker& check, const LoaderConfig& config) {
    for (const BindingField& field : kBindingFields) {
        const CpuBinding& binding = config.*field.member;
        if (binding.policy == CpuBindPolicy::CpuList && binding.cpus.empty())
            check.add(field.name, "\"\"", allowed_text(config_field(field.member)));
    }
    if (!config.topology_xml.empty() && config.is_cuda())
        check.add("topology_xml", config.topology_xml,
                  "empty with a CUDA device: a loaded topology is not this machine, so only the emulated device runs on "
                  "it (device emulated)");
    if (config.gpu_pci_bus_id.empty()) return;
    if (normalize_pci_bus_id(config.gpu_pci_bus_id).empty())
        check.add("gpu_pci_bus_id", config.gpu_pci_bus_id, "a PCI bus id such as 0000:c1:00.0");
    else if (config.is_cuda())
        check.add("gpu_pci_bus_id", config.gpu_pci_bus_id,
                  "unset with a CUDA device: its GPU is the device's own (choose it with device cuda:N)");
}

bool check_budget_setting(Checker& check, const LoaderConfig& config) {
    return !config.pinned_budget_bytes || check.integer(kPinnedBudget, *config.pinned_budget_bytes);
}

// The worst-case page-locked footprint must fit the budget: locking more than that is how a
// data loader takes a machine down.
void check_pinned_footprint(Checker& check, const LoaderConfig& config) {
    if (!config.pin_memory) return;
    const PinnedBound bound = worst_case_pinned(config);
    const std::uint64_t budget = config.pinned_budget_bytes.value_or(default_pinned_budget());
    if (bound.bytes() <= budget) return;
    const std::string value = config.pinned_budget_bytes
                                  ? std::to_string(budget) + " (" + format_size_rounded(budget) + ")"
                                  : "default (" + format_size_rounded(budget) + ", a quarter of physical memory)";
    check.add("pinned_budget_bytes", value,
              "a budget that holds what pin_memory would lock: up to " + in_unit(bound.bytes(), kGiB, "GiB") + " (" +
                  std::to_string(bound.blocks) + " blocks of " + in_unit(bound.block_bytes, kMiB, "MiB") +
                  "). Page-locked memory cannot be swapped out or moved by the kernel; locking too much starves "
                  "other processes and the page cache and can bring in the OOM killer. Lower num_workers, "
                  "prefetch_factor or batch_size, or raise pinned_budget_bytes");
}

}  // namespace

std::vector<ConfigIssue> find_config_issues(const LoaderConfig& config) {
    Checker check;
    const bool batch_size_ok = check.integer(kBatchSize, config.batch_size);
    const bool shape_ok = check_shape(check, config.sample_shape);
    const bool sizes_ok = batch_size_ok && shape_ok && check_sizes(check, config);
    const bool workers_ok = check.integer(kWorkers, config.num_workers);
    const bool prefetch_ok = check_prefetch(check, config);
    check.number(kCpuUs, config.cpu_us_per_sample);
    check.number(kGpuUs, config.gpu_us_per_batch);
    check_run_length(check, config);
    check_device(check, config.device);
    check_host(check, config);
    const bool budget_ok = check_budget_setting(check, config);
    // The footprint is only meaningful (and only fits in 64 bits) once its inputs are valid.
    if (sizes_ok && workers_ok && prefetch_ok && budget_ok) check_pinned_footprint(check, config);
    check_numa(check, config);
    return check.take();
}

void validate(const LoaderConfig& config) {
    auto issues = find_config_issues(config);
    if (!issues.empty()) throw ConfigError(std::move(issues.front()));
}

}  // namespace pinscope
