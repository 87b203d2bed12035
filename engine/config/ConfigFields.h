// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every LoaderConfig field, once: its JSON key, pinscope-cli flag, type, range, unit, default and
// help. The JSON form, validation, the command line's flags, the window's controls and the change
// descriptions all read this table; a field is added here and nowhere else.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/config/ConfigChoices.h"
#include "engine/config/LoaderConfig.h"
#include "engine/text/Units.h"

namespace pinscope {

enum class FieldType : std::uint8_t {
    Integer,  // a whole number
    Number,   // a real number
    OnOff,    // true or false in JSON; on or off on the command line and in change descriptions
    Choice,   // one of the field's choices, by name
    Shape,    // dimensions: [3, 224, 224] in JSON, 3x224x224 elsewhere
    Size,     // a number of bytes; the command line also takes 512M, 4G, 1.5GiB
    Text,     // free text: a device name, a file, a PCI bus id
    Binding,  // one of the field's choices (binding policies), or a CPU list such as 0-3,8
};

struct FieldRange {
    double lo = 0;
    double hi = 0;
    bool lo_exclusive = false;        // above lo rather than from it
    bool hi_physical_memory = false;  // at most this machine's physical memory (hi unused)
};

// The LoaderConfig member a field is, whatever its type.
using FieldMember = std::variant<std::uint32_t LoaderConfig::*, std::optional<std::uint32_t> LoaderConfig::*,
                                 std::optional<std::uint64_t> LoaderConfig::*, double LoaderConfig::*,
                                 std::optional<double> LoaderConfig::*, bool LoaderConfig::*,
                                 std::vector<std::uint32_t> LoaderConfig::*, std::string LoaderConfig::*,
                                 DType LoaderConfig::*, PinMode LoaderConfig::*, CopyStream LoaderConfig::*,
                                 std::optional<HostMode> LoaderConfig::*, MemoryPlacement LoaderConfig::*,
                                 CpuBinding LoaderConfig::*>;

// Whether a member type is optional (a field that may be unset).
template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

struct ConfigField {
    std::string_view key;         // the JSON key, named as the LoaderConfig member: "num_workers"
    std::string_view flag;        // pinscope-cli's flag: "--workers"
    std::string_view value_name;  // the flag's value in --help: "N"
    FieldType type;
    FieldMember member;
    std::string_view help;  // what it is, a phrase starting in lower case
    std::optional<FieldRange> range = {};         // what validation allows; for a shape, each dimension
    std::string_view unit = {};                   // "microseconds"
    std::string_view unit_symbol = {};            // "µs", for a control's suffix
    std::span<const FieldChoice> choices = {};    // Choice and Binding
    std::string_view default_note = {};           // the default where LoaderConfig's value does not say it
    std::string_view unset_text = {};             // an unset value or empty text, as change descriptions say it
    std::string (*unset_text_of)(const LoaderConfig&) = nullptr;  // the same, where other fields decide it
};

// A sample has 1 to this many dimensions (each in sample_shape's range).
inline constexpr std::size_t kMaxSampleDimensions = 8;

// In LoaderConfig's order.
inline constexpr ConfigField kConfigFields[] = {
    {.key = "batch_size", .flag = "--batch-size", .value_name = "N", .type = FieldType::Integer,
     .member = &LoaderConfig::batch_size, .help = "samples per batch", .range = FieldRange{1, 65536}},
    {.key = "sample_shape", .flag = "--sample-shape", .value_name = "SHAPE", .type = FieldType::Shape,
     .member = &LoaderConfig::sample_shape, .help = "one sample's dimensions, such as 3x224x224",
     .range = FieldRange{1, 1048576}},
    {.key = "dtype", .flag = "--dtype", .value_name = "TYPE", .type = FieldType::Choice, .member = &LoaderConfig::dtype,
     .help = "element type of the samples, which sets the bytes per batch", .choices = kDTypeChoices},
    {.key = "num_workers", .flag = "--workers", .value_name = "N", .type = FieldType::Integer,
     .member = &LoaderConfig::num_workers,
     .help = "worker threads that build batches in parallel; 0: the consumer loads each batch itself",
     .range = FieldRange{0, 256}},
    {.key = "prefetch_factor", .flag = "--prefetch", .value_name = "N", .type = FieldType::Integer,
     .member = &LoaderConfig::prefetch_factor,
     .help = "batches each worker keeps ready ahead, only with workers: in flight at most num_workers x "
             "prefetch_factor",
     .range = FieldRange{1, 64}, .default_note = "2 with workers",
     .unset_text_of = [](const LoaderConfig& c) -> std::string {
         return c.num_workers > 0 ? "default (" + std::to_string(c.effective_prefetch_factor()) + ")" : "unset";
     }},
    {.key = "pin_memory", .flag = "--pin-memory", .value_name = "on|off", .type = FieldType::OnOff,
     .member = &LoaderConfig::pin_memory,
     .help = "copy each batch into page-locked (pinned) host memory, so that its copy to the GPU can run "
             "asynchronously"},
    {.key = "non_blocking", .flag = "--non-blocking", .value_name = "on|off", .type = FieldType::OnOff,
     .member = &LoaderConfig::non_blocking,
     .help = "asynchronous host-to-device copies, as .to(device, non_blocking=True): a copy from pinned memory "
             "returns at once"},
    {.key = "copy_stream", .flag = "--copy-stream", .value_name = "side|compute", .type = FieldType::Choice,
     .member = &LoaderConfig::copy_stream, .help = "which stream the host-to-device copy is queued on",
     .choices = kCopyStreamChoices},
    {.key = "in_order", .flag = "--in-order", .value_name = "on|off", .type = FieldType::OnOff,
     .member = &LoaderConfig::in_order,
     .help = "hand batches out strictly in index order: a slow worker stalls the ones behind it"},
    {.key = "pin_mode", .flag = "--pin-mode", .value_name = "MODE", .type = FieldType::Choice,
     .member = &LoaderConfig::pin_mode, .help = "how page-locked memory is obtained when pin_memory is on",
     .choices = kPinModeChoices},
    {.key = "cpu_us_per_sample", .flag = "--cpu-us", .value_name = "US", .type = FieldType::Number,
     .member = &LoaderConfig::cpu_us_per_sample,
     .help = "CPU work per sample in a worker, such as decoding and augmenting", .range = FieldRange{0, 1e6},
     .unit = "microseconds", .unit_symbol = "µs"},
    {.key = "gpu_us_per_batch", .flag = "--gpu-us", .value_name = "US", .type = FieldType::Number,
     .member = &LoaderConfig::gpu_us_per_batch, .help = "kernel time per batch, after it has read the batch",
     .range = FieldRange{0, 1e7}, .unit = "microseconds", .unit_symbol = "µs"},
    {.key = "batches", .flag = "--batches", .value_name = "N", .type = FieldType::Integer,
     .member = &LoaderConfig::batches, .help = "run length in batches, instead of seconds",
     .range = FieldRange{1, 1e9}, .unset_text = "unset"},
    {.key = "seconds", .flag = "--seconds", .value_name = "S", .type = FieldType::Number,
     .member = &LoaderConfig::seconds, .help = "run length in seconds, instead of batches",
     .range = FieldRange{.lo = 0, .hi = 604800, .lo_exclusive = true}, .unit = "seconds", .unit_symbol = "s",
     .unset_text = "unset"},
    {.key = "device", .flag = "--device", .value_name = "DEVICE", .type = FieldType::Text,
     .member = &LoaderConfig::device,
     .help = "where the batches go: auto (the GPU if there is one, else emulated), emulated, emulated:PROFILE "
             "(modelled on a measured GPU; PROFILE a built-in name or a JSON file), cuda or cuda:N (a real GPU)"},
    {.key = "host", .flag = "--host", .value_name = "MODE", .type = FieldType::Choice, .member = &LoaderConfig::host,
     .help = "how the host work (loading, pinning) is done", .choices = kHostModeChoices,
     .default_note = "modeled on the emulated device, real on CUDA", .unset_text = "default"},
    {.key = "pinned_budget_bytes", .flag = "--pinned-budget", .value_name = "BYTES", .type = FieldType::Size,
     .member = &LoaderConfig::pinned_budget_bytes,
     .help = "most page-locked memory the run may hold, such as 512M, 4G or 1.5GiB; a configuration that could "
             "lock more is refused",
     .range = FieldRange{.lo = 16 * kMiB, .hi_physical_memory = true}, .unit = "bytes",
     .default_note = "a quarter of physical memory", .unset_text = "default"},
    {.key = "bind_workers", .flag = "--bind-workers", .value_name = "POLICY", .type = FieldType::Binding,
     .member = &LoaderConfig::bind_workers, .help = "where the worker threads may run",
     .choices = kBindPolicyChoices},
    {.key = "bind_pin_thread", .flag = "--bind-pin", .value_name = "POLICY", .type = FieldType::Binding,
     .member = &LoaderConfig::bind_pin_thread, .help = "where the pin thread may run", .choices = kBindPolicyChoices},
    {.key = "bind_consumer", .flag = "--bind-consumer", .value_name = "POLICY", .type = FieldType::Binding,
     .member = &LoaderConfig::bind_consumer, .help = "where the consumer (the training loop's thread) may run",
     .choices = kBindPolicyChoices},
    {.key = "membind", .flag = "--membind", .value_name = "PLACEMENT", .type = FieldType::Choice,
     .member = &LoaderConfig::membind, .help = "where the pages of pinned blocks are placed before they are locked",
     .choices = kPlacementChoices},
    {.key = "topology_xml", .flag = "--topology", .value_name = "FILE|NAME", .type = FieldType::Text,
     .member = &LoaderConfig::topology_xml,
     .help = "the machine the run's threads and pages are placed on: this one, or an hwloc XML topology of "
             "another, a file or a shipped one (2-socket-2-gpu, 4-gpu-server), whose placements the emulated "
             "device models",
     .unset_text = "this machine"},
    {.key = "gpu_pci_bus_id", .flag = "--gpu", .value_name = "BUSID", .type = FieldType::Text,
     .member = &LoaderConfig::gpu_pci_bus_id,
     .help = "on a loaded topology, the GPU the emulated device stands for, by PCI bus id such as 0000:c1:00.0",
     .default_note = "the topology's first GPU", .unset_text = "default"},
};

// The field that is `member`; in a constant expression, a compile error when there is none.
template <typename T>
constexpr const ConfigField& config_field(T LoaderConfig::*member) {
    // holds_alternative and get, not get_if: GCC 12 with -fsanitize=undefined cannot evaluate
    // get_if's null check in a constant expression.
    for (const ConfigField& field : kConfigFields)
        if (std::holds_alternative<T LoaderConfig::*>(field.member) && std::get<T LoaderConfig::*>(field.member) == member)
            return field;
    throw std::logic_error("not a configuration field");
}

// The field whose JSON key is `key`; null when there is none.
const ConfigField* find_config_field(std::string_view key);

// The field's value as change descriptions say it: "on", "3x224x224", "default (2)", "unset".
std::string field_text(const ConfigField& field, const LoaderConfig& config);
// The default, as --help says it: "64", "2 with workers".
std::string default_text(const ConfigField& field);
// What the field allows, as messages say it: "an integer from 0 to 256", "a number of seconds
// above 0 and at most 604800", "one of: side, compute"; for a shape, what each dimension allows.
std::string allowed_text(const ConfigField& field);
// The range in a few words, with the unit: "0 to 256", "above 0, at most 604800 seconds"; empty
// without a range.
std::string range_text(const ConfigField& field);
// The choices with their briefs: "side (a stream of its own, ...) or compute (...)"; a binding's
// end with "or a CPU list such as 0-3,8". Empty without choices.
std::string choices_text(const ConfigField& field);
// The lowest and highest whole number allowed (Integer, Size, a Shape's dimensions).
std::pair<std::uint64_t, std::uint64_t> integer_range(const ConfigField& field);

}  // namespace pinscope
