// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sweep/SweepPlan.h"

#include <algorithm>
#include <optional>

namespace pinscope {

namespace {

// The axis values, or the base value alone when the axis is empty.
template <typename T>
std::vector<T> values_or(const std::vector<T>& axis, T base) {
    return axis.empty() ? std::vector<T>{base} : axis;
}

}  // namespace

std::vector<LoaderConfig> expand_sweep(const LoaderConfig& base, const SweepAxes& axes) {
    // An unset base prefetch is a value of its own (PyTorch's default), kept as unset.
    std::vector<std::optional<std::uint32_t>> prefetch_values;
    if (axes.prefetch.empty()) prefetch_values.push_back(base.prefetch_factor);
    for (const std::uint32_t value : axes.prefetch) prefetch_values.emplace_back(value);

    // No bind axis keeps each thread's own binding from the base.
    std::vector<std::optional<CpuBinding>> bind_values;
    if (axes.bind.empty()) bind_values.emplace_back();
    for (const CpuBinding& bind : axes.bind) bind_values.emplace_back(bind);

    std::vector<LoaderConfig> configs;
    for (const std::uint32_t workers : values_or(axes.workers, base.num_workers)) {
        for (const auto& prefetch : prefetch_values) {
            for (const bool pin_memory : values_or(axes.pin_memory, base.pin_memory)) {
                for (const PinMode pin_mode : values_or(axes.pin_mode, base.pin_mode)) {
                    for (const CopyStream copy_stream : values_or(axes.copy_stream, base.copy_stream)) {
                        for (const std::optional<CpuBinding>& bind : bind_values) {
                            for (const MemoryPlacement membind : values_or(axes.membind, base.membind)) {
                                LoaderConfig config = base;
                                config.num_workers = workers;
                                config.prefetch_factor = workers == 0 ? std::nullopt : prefetch;
                                config.pin_memory = pin_memory;
                                config.pin_mode = pin_memory ? pin_mode : base.pin_mode;
                                config.copy_stream = copy_stream;
                                if (bind) config.bind_workers = config.bind_pin_thread = config.bind_consumer = *bind;
                                config.membind = membind;
                                if (std::find(configs.begin(), configs.end(), config) == configs.end())
                                    configs.push_back(std::move(config));
                            }
                        }
                    }
                }
            }
        }
    }
    return configs;
}

std::optional<std::uint32_t> applied_prefetch(const LoaderConfig& config) {
    if (config.num_workers == 0) return std::nullopt;
    return config.effective_prefetch_factor();
}

std::optional<PinMode> applied_pin_mode(const LoaderConfig& config) {
    if (!config.pin_memory) return std::nullopt;
    return config.pin_mode;
}

std::string describe_bindings(const LoaderConfig& config) {
    if (config.bind_workers == config.bind_pin_thread && config.bind_workers == config.bind_consumer)
        return to_string(config.bind_workers);
    return "workers " + to_string(config.bind_workers) + ", pin thread " + to_string(config.bind_pin_thread) +
           ", consumer " + to_string(config.bind_consumer);
}

std::string describe_sweep_point(const LoaderConfig& config) {
    const auto prefetch = applied_prefetch(config);
    const auto pin_mode = applied_pin_mode(config);
    std::string text = "workers=" + std::to_string(config.num_workers) +
                       " prefetch=" + (prefetch ? std::to_string(*prefetch) : "-") +
                       " pin_memory=" + (config.pin_memory ? "on" : "off") +
                       " pin_mode=" + (pin_mode ? to_string(*pin_mode) : "-");
    const LoaderConfig defaults;
    if (config.copy_stream != defaults.copy_stream) text += " copy_stream=" + to_string(config.copy_stream);
    if (config.bind_workers != defaults.bind_workers || config.bind_pin_thread != defaults.bind_pin_thread ||
        config.bind_consumer != defaults.bind_consumer || config.membind != defaults.membind)
        text += " bind=" + describe_bindings(config) + " membind=" + to_string(config.membind);
    return text;
}

}  // namespace pinscope
