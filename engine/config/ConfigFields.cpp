// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/config/ConfigFields.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/config/PinnedBudget.h"
#include "engine/text/TextFormat.h"

namespace pinscope {

namespace config_detail {

// Shortest text that reads back as the same double: 2.5, 3, 1000000. Shared with
// ConfigValidation.cpp, which declares it.
std::string format_number(double value) {
    std::array<char, 64> buffer{};
    // Fixed notation reads best; beyond 1e15 it would print long runs of digits.
    const auto format = std::abs(value) < 1e15 ? std::chars_format::fixed : std::chars_format::general;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format);
    return std::string(buffer.data(), result.ptr);
}

}  // namespace config_detail

namespace {

using config_detail::format_number;

// The binding keys are the table's.
static_assert(std::size(kBindingFields) == 3);
static_assert(config_field(kBindingFields[0].member).key == kBindingFields[0].name);
static_assert(config_field(kBindingFields[1].member).key == kBindingFields[1].name);
static_assert(config_field(kBindingFields[2].member).key == kBindingFields[2].name);

template <typename T>
std::string value_text(const ConfigField& field, const LoaderConfig& config, const T& value) {
    if constexpr (kIsOptional<T>) {
        if (value) return value_text(field, config, *value);
        return field.unset_text_of != nullptr ? field.unset_text_of(config) : std::string(field.unset_text);
    } else if constexpr (std::is_same_v<T, bool>) {
        return value ? "on" : "off";
    } else if constexpr (std::is_integral_v<T>) {
        return std::to_string(value);
    } else if constexpr (std::is_same_v<T, double>) {
        return format_number(value);
    } else if constexpr (std::is_same_v<T, std::string>) {
        return value.empty() && !field.unset_text.empty() ? std::string(field.unset_text) : value;
    } else if constexpr (std::is_same_v<T, std::vector<std::uint32_t>>) {
        return shape_to_string(value);
    } else {
        return to_string(value);  // the enumerations and CpuBinding
    }
}

std::string integer_bound_text(double bound) {
    return std::to_string(bound >= 0x1p64 ? std::numeric_limits<std::uint64_t>::max()
                                          : static_cast<std::uint64_t>(bound));
}

}  // namespace

const ConfigField* find_config_field(std::string_view key) {
    for (const ConfigField& field : kConfigFields)
        if (field.key == key) return &field;
    return nullptr;
}

std::string field_text(const ConfigField& field, const LoaderConfig& config) {
    return std::visit([&](auto member) { return value_text(field, config, config.*member); }, field.member);
}

std::string default_text(const ConfigField& field) {
    return field.default_note.empty() ? field_text(field, LoaderConfig{}) : std::string(field.default_note);
}

std::pair<std::uint64_t, std::uint64_t> integer_range(const ConfigField& field) {
    constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
    if (!field.range) return {0, field.type == FieldType::Shape ? std::numeric_limits<std::uint32_t>::max() : kMax};
    const FieldRange& range = *field.range;
    const auto lo = static_cast<std::uint64_t>(range.lo);
    if (range.hi_physical_memory) {
        const std::uint64_t physical = physical_memory_bytes();
        return {lo, physical > 0 ? physical : kMax};
    }
    return {lo, range.hi >= 0x1p64 ? kMax : static_cast<std::uint64_t>(range.hi)};
}

std::string allowed_text(const ConfigField& field) {
    switch (field.type) {
    case FieldType::Integer:
    case FieldType::Shape:
    case FieldType::Size: {
        const auto [lo, hi] = integer_range(field);
        std::string text = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
        if (!field.unit.empty()) text += " " + std::string(field.unit);
        if (field.range && field.range->hi_physical_memory)
            text += " (" + format_size_rounded(lo) + " to this machine's physical memory, " +
                    format_size_rounded(physical_memory_bytes()) + ")";
        return text;
    }
    case FieldType::Number: {
        if (!field.range) return "a number";
        const FieldRange& range = *field.range;
        const std::string from = range.lo_exclusive ? "above " + format_number(range.lo) + " and at most "
                                                    : "from " + format_number(range.lo) + " to ";
        return "a number of " + std::string(field.unit) + " " + from + format_number(range.hi);
    }
    case FieldType::OnOff: return "true or false";
    case FieldType::Choice: {
        std::string names;
        for (const FieldChoice& choice : field.choices) names += (names.empty() ? "" : ", ") + std::string(choice.name);
        return "one of: " + names;
    }
    case FieldType::Binding: return choices_text(field);
    case FieldType::Text: return "a string";
    }
    return "";
}

std::string range_text(const ConfigField& field) {
    if (!field.range) return "";
    const FieldRange& range = *field.range;
    const std::string unit = field.unit.empty() ? "" : " " + std::string(field.unit);
    if (field.type == FieldType::Shape)
        return "1 to " + std::to_string(kMaxSampleDimensions) + " dimensions, each " + integer_bound_text(range.lo) +
               " to " + integer_bound_text(range.hi);
    if (range.hi_physical_memory) return format_size_rounded(integer_range(field).first) + " to physical memory";
    const bool whole = field.type != FieldType::Number;
    const std::string lo = whole ? integer_bound_text(range.lo) : format_number(range.lo);
    const std::string hi = whole ? integer_bound_text(range.hi) : format_number(range.hi);
    return range.lo_exclusive ? "above " + lo + ", at most " + hi + unit : lo + " to " + hi + unit;
}

std::string choices_text(const ConfigField& field) {
    std::vector<std::string> items;
    for (const FieldChoice& choice : field.choices)
        items.push_back(choice.brief.empty() ? std::string(choice.name)
                                             : std::string(choice.name) + " (" + std::string(choice.brief) + ")");
    if (field.type == FieldType::Binding) items.emplace_back("a CPU list such as 0-3,8");
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) text += items.size() == 2 ? " or " : i + 1 == items.size() ? ", or " : ", ";
        text += items[i];
    }
    return text;
}

std::vector<std::string> describe_changes(const LoaderConfig& before, const LoaderConfig& after) {
    std::vector<std::string> lines;
    for (const ConfigField& field : kConfigFields) {
        const std::string old_text = field_text(field, before);
        const std::string new_text = field_text(field, after);
        if (old_text != new_text) lines.push_back(std::string(field.key) + ": " + old_text + " -> " + new_text);
    }
    return lines;
}

}  // namespace pinscope
