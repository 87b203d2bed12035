// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/LoaderConfig.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <utility>

#include "engine/topology/CpuList.h"

namespace pinscope {

namespace config_detail {

// Shortest text that reads back as the same double: 2.5, 3, 1000000. Shared with
// ConfigValidation.cpp, which declares it (the config headers are a fixed contract).
std::string format_number(double value) {
    std::array<char, 64> buffer{};
    // Fixed notation reads best; beyond 1e15 it would print long runs of digits.
    const auto format = std::abs(value) < 1e15 ? std::chars_format::fixed : std::chars_format::general;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format);
    return std::string(buffer.data(), result.ptr);
}

}  // namespace config_detail

namespace {

template <typename Enum>
struct EnumName {
    Enum value;
    std::string_view name;
    std::string_view alias;  // a longer spelling accepted by parse; empty if none
};

constexpr std::array<EnumName<DType>, 7> kDTypeNames{{
    {DType::F32, "f32", "float32"},
    {DType::F16, "f16", "float16"},
    {DType::BF16, "bf16", "bfloat16"},
    {DType::U8, "u8", "uint8"},
    {DType::I32, "i32", "int32"},
    {DType::I64, "i64", "int64"},
    {DType::F64, "f64", "float64"},
}};

constexpr std::array<EnumName<PinMode>, 4> kPinModeNames{{
    {PinMode::Pool, "pool", ""},
    {PinMode::Alloc, "alloc", ""},
    {PinMode::Register, "register", ""},
    {PinMode::Worker, "worker", ""},
}};

constexpr std::array<EnumName<HostMode>, 2> kHostModeNames{{
    {HostMode::Modeled, "modeled", ""},
    {HostMode::Real, "real", ""},
}};

constexpr std::array<EnumName<CopyStream>, 2> kCopyStreamNames{{
    {CopyStream::Side, "side", ""},
    {CopyStream::Compute, "compute", ""},
}};

constexpr std::array<EnumName<MemoryPlacement>, 4> kPlacementNames{{
    {MemoryPlacement::FirstTouch, "none", "first-touch"},
    {MemoryPlacement::GpuLocal, "local", ""},
    {MemoryPlacement::Remote, "remote", ""},
    {MemoryPlacement::Interleave, "interleave", ""},
}};

constexpr std::array<EnumName<CpuBindPolicy>, 3> kBindPolicyNames{{
    {CpuBindPolicy::None, "none", ""},
    {CpuBindPolicy::GpuLocal, "local", ""},
    {CpuBindPolicy::Remote, "remote", ""},
}};

template <typename Enum, std::size_t N>
std::string name_of(const std::array<EnumName<Enum>, N>& names, Enum value) {
    for (const auto& entry : names)
        if (entry.value == value) return std::string(entry.name);
    return "unknown";
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
               return lower(x) == lower(y);
           });
}

template <typename Enum, std::size_t N>
std::optional<Enum> parse_name(const std::array<EnumName<Enum>, N>& names, const std::string& text) {
    for (const auto& entry : names) {
        if (equals_ignoring_case(text, entry.name)) return entry.value;
        if (!entry.alias.empty() && equals_ignoring_case(text, entry.alias)) return entry.value;
    }
    return std::nullopt;
}

std::string on_off(bool value) { return value ? "on" : "off"; }

template <typename T, typename Format>
std::string optional_text(const std::optional<T>& value, const char* unset, Format format) {
    return value ? format(*value) : std::string(unset);
}

std::string integer_text(std::uint64_t value) { return std::to_string(value); }

// Every field as describe_changes shows it, in declaration order.
std::vector<std::pair<const char*, std::string>> field_texts(const LoaderConfig& c) {
    return {
        {"batch_size", integer_text(c.batch_size)},
        {"sample_shape", shape_to_string(c.sample_shape)},
        {"dtype", to_string(c.dtype)},
        {"num_workers", integer_text(c.num_workers)},
        {"prefetch_factor", c.prefetch_factor          ? integer_text(*c.prefetch_factor)
                            : c.num_workers > 0 ? "default (" + integer_text(c.effective_prefetch_factor()) + ")"
                                                : std::string("unset")},
        {"pin_memory", on_off(c.pin_memory)},
        {"non_blocking", on_off(c.non_blocking)},
        {"copy_stream", to_string(c.copy_stream)},
        {"in_order", on_off(c.in_order)},
        {"pin_mode", to_string(c.pin_mode)},
        {"cpu_us_per_sample", config_detail::format_number(c.cpu_us_per_sample)},
        {"gpu_us_per_batch", config_detail::format_number(c.gpu_us_per_batch)},
        {"batches", optional_text(c.batches, "unset", integer_text)},
        {"seconds", optional_text(c.seconds, "unset", config_detail::format_number)},
        {"device", c.device},
        {"host", optional_text(c.host, "default", [](HostMode mode) { return to_string(mode); })},
        {"pinned_budget_bytes", optional_text(c.pinned_budget_bytes, "default", integer_text)},
        {"bind_workers", to_string(c.bind_workers)},
        {"bind_pin_thread", to_string(c.bind_pin_thread)},
        {"bind_consumer", to_string(c.bind_consumer)},
        {"membind", to_string(c.membind)},
        {"topology_xml", c.topology_xml.empty() ? std::string("this machine") : c.topology_xml},
        {"gpu_pci_bus_id", c.gpu_pci_bus_id.empty() ? std::string("default") : c.gpu_pci_bus_id},
    };
}

}  // namespace

std::uint64_t LoaderConfig::sample_bytes() const {
    std::uint64_t bytes = dtype_size(dtype);
    for (const std::uint32_t dim : sample_shape) bytes *= dim;
    return bytes;
}

std::uint64_t LoaderConfig::batch_bytes() const { return sample_bytes() * batch_size; }

std::uint32_t LoaderConfig::effective_prefetch_factor() const {
    return num_workers == 0 ? 0 : prefetch_factor.value_or(2);
}

std::uint32_t LoaderConfig::max_outstanding() const {
    return num_workers == 0 ? 1 : num_workers * effective_prefetch_factor();
}

HostMode LoaderConfig::effective_host() const { return host.value_or(is_cuda() ? HostMode::Real : HostMode::Modeled); }

DeviceChoice LoaderConfig::device_choice() const { return parse_device(device).value_or(DeviceChoice{}); }

std::uint32_t dtype_size(DType dtype) {
    switch (dtype) {
    case DType::U8: return 1;
    case DType::F16:
    case DType::BF16: return 2;
    case DType::F32:
    case DType::I32: return 4;
    case DType::I64:
    case DType::F64: return 8;
    }
    return 4;
}

std::string to_string(DType dtype) { return name_of(kDTypeNames, dtype); }
std::string to_string(PinMode mode) { return name_of(kPinModeNames, mode); }
std::string to_string(HostMode mode) { return name_of(kHostModeNames, mode); }
std::string to_string(CopyStream stream) { return name_of(kCopyStreamNames, stream); }

std::optional<DType> parse_dtype(const std::string& text) { return parse_name(kDTypeNames, text); }
std::optional<PinMode> parse_pin_mode(const std::string& text) { return parse_name(kPinModeNames, text); }
std::optional<HostMode> parse_host_mode(const std::string& text) { return parse_name(kHostModeNames, text); }
std::optional<CopyStream> parse_copy_stream(const std::string& text) { return parse_name(kCopyStreamNames, text); }

std::string to_string(MemoryPlacement placement) { return name_of(kPlacementNames, placement); }
std::optional<MemoryPlacement> parse_memory_placement(const std::string& text) {
    return parse_name(kPlacementNames, text);
}

std::string to_string(const CpuBinding& binding) {
    return binding.policy == CpuBindPolicy::CpuList ? cpu_list_to_string(binding.cpus)
                                                     : name_of(kBindPolicyNames, binding.policy);
}

std::optional<CpuBinding> parse_cpu_binding(const std::string& text) {
    if (const auto policy = parse_name(kBindPolicyNames, text)) return CpuBinding{*policy, {}};
    if (auto cpus = parse_cpu_list(text)) return CpuBinding{CpuBindPolicy::CpuList, std::move(*cpus)};
    return std::nullopt;
}

std::string shape_to_string(const std::vector<std::uint32_t>& shape) {
    std::string text;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += 'x';
        text += std::to_string(shape[i]);
    }
    return text;
}

std::vector<std::string> describe_changes(const LoaderConfig& before, const LoaderConfig& after) {
    const auto old_texts = field_texts(before);
    const auto new_texts = field_texts(after);
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < old_texts.size(); ++i) {
        const auto& [name, old_text] = old_texts[i];
        const std::string& new_text = new_texts[i].second;
        if (old_text != new_text) lines.push_back(std::string(name) + ": " + old_text + " -> " + new_text);
    }
    return lines;
}

}  // namespace pinscope
