// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/LoaderConfig.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <utility>

#include "engine/config/ConfigChoices.h"
#include "engine/topology/CpuList.h"

namespace pinscope {

namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
               return lower(x) == lower(y);
           });
}

template <typename Enum>
std::string name_of(std::span<const FieldChoice> choices, Enum value) {
    return std::string(choice_name(choices, choice_value(value)));
}

template <typename Enum>
std::optional<Enum> parse_as(std::span<const FieldChoice> choices, const std::string& text) {
    const auto value = find_choice(choices, text);
    return value ? std::optional<Enum>(static_cast<Enum>(*value)) : std::nullopt;
}

}  // namespace

std::string_view choice_name(std::span<const FieldChoice> choices, std::uint8_t value) {
    for (const FieldChoice& choice : choices)
        if (choice.value == value) return choice.name;
    return "unknown";
}

std::optional<std::uint8_t> find_choice(std::span<const FieldChoice> choices, std::string_view text) {
    for (const FieldChoice& choice : choices)
        if (equals_ignoring_case(text, choice.name) ||
            (!choice.alias.empty() && equals_ignoring_case(text, choice.alias)))
            return choice.value;
    return std::nullopt;
}

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

std::string to_string(DType dtype) { return name_of(kDTypeChoices, dtype); }
std::string to_string(PinMode mode) { return name_of(kPinModeChoices, mode); }
std::string to_string(HostMode mode) { return name_of(kHostModeChoices, mode); }
std::string to_string(CopyStream stream) { return name_of(kCopyStreamChoices, stream); }

std::optional<DType> parse_dtype(const std::string& text) { return parse_as<DType>(kDTypeChoices, text); }
std::optional<PinMode> parse_pin_mode(const std::string& text) { return parse_as<PinMode>(kPinModeChoices, text); }
std::optional<HostMode> parse_host_mode(const std::string& text) { return parse_as<HostMode>(kHostModeChoices, text); }
std::optional<CopyStream> parse_copy_stream(const std::string& text) {
    return parse_as<CopyStream>(kCopyStreamChoices, text);
}

std::string to_string(MemoryPlacement placement) { return name_of(kPlacementChoices, placement); }
std::optional<MemoryPlacement> parse_memory_placement(const std::string& text) {
    return parse_as<MemoryPlacement>(kPlacementChoices, text);
}

std::string to_string(const CpuBinding& binding) {
    return binding.policy == CpuBindPolicy::CpuList ? cpu_list_to_string(binding.cpus)
                                                     : name_of(kBindPolicyChoices, binding.policy);
}

std::optional<CpuBinding> parse_cpu_binding(const std::string& text) {
    if (const auto policy = parse_as<CpuBindPolicy>(kBindPolicyChoices, text)) return CpuBinding{*policy, {}};
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

}  // namespace pinscope
