// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The names of every enumerated configuration value, each with a few words and a sentence on it:
// what the JSON form and the command line read and write, what --help lists and what the
// controls' items say. Part of the field table (ConfigFields.h).
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "engine/config/LoaderConfig.h"

namespace pinscope {

struct FieldChoice {
    std::uint8_t value;            // the enumerator (choice_value)
    std::string_view name;         // as written and shown: "pool"
    std::string_view brief = {};   // a few words for lists of choices: "the GPU's NUMA node"
    std::string_view help = {};    // a sentence for a tooltip; empty: the brief says it
    std::string_view alias = {};   // another spelling that is read too: "float32"
};

template <typename Enum>
constexpr std::uint8_t choice_value(Enum value) {
    return static_cast<std::uint8_t>(value);
}

inline constexpr FieldChoice kDTypeChoices[] = {
    {.value = choice_value(DType::F32), .name = "f32", .alias = "float32"},
    {.value = choice_value(DType::F16), .name = "f16", .alias = "float16"},
    {.value = choice_value(DType::BF16), .name = "bf16", .alias = "bfloat16"},
    {.value = choice_value(DType::U8), .name = "u8", .alias = "uint8"},
    {.value = choice_value(DType::I32), .name = "i32", .alias = "int32"},
    {.value = choice_value(DType::I64), .name = "i64", .alias = "int64"},
    {.value = choice_value(DType::F64), .name = "f64", .alias = "float64"},
};

inline constexpr FieldChoice kPinModeChoices[] = {
    {.value = choice_value(PinMode::Pool),
     .name = "pool",
     .brief = "PyTorch's caching host allocator",
     .help = "PyTorch's caching host allocator: power-of-two blocks reused once their copy ended"},
    {.value = choice_value(PinMode::Alloc),
     .name = "alloc",
     .brief = "cudaHostAlloc for every batch",
     .help = "cudaHostAlloc for every batch, cudaFreeHost once its copy ended (no cache)"},
    {.value = choice_value(PinMode::Register),
     .name = "register",
     .brief = "each batch's own buffer page-locked in place",
     .help = "Each batch's own buffer page-locked in place (cudaHostRegister)"},
    {.value = choice_value(PinMode::Worker),
     .name = "worker",
     .brief = "workers collate straight into pinned blocks",
     .help = "Workers collate straight into pinned blocks; there is no pin thread"},
};

inline constexpr FieldChoice kHostModeChoices[] = {
    {.value = choice_value(HostMode::Modeled), .name = "modeled", .brief = "modelled from the device's profile"},
    {.value = choice_value(HostMode::Real), .name = "real", .brief = "done on this machine's threads and memory"},
};

inline constexpr FieldChoice kCopyStreamChoices[] = {
    {.value = choice_value(CopyStream::Side),
     .name = "side",
     .brief = "a stream of its own, as prefetcher recipes do: copies overlap kernels",
     .help = "A stream of its own, as prefetcher recipes do: the copy overlaps the kernels, and a blocking copy "
             "waits only for itself"},
    {.value = choice_value(CopyStream::Compute),
     .name = "compute",
     .brief = "the kernels' stream, as x.to(\"cuda\") in a plain loop: each copy waits for the kernels before it",
     .help = "The kernels' stream, as x.to(\"cuda\") in a plain training loop: the copy starts after every kernel "
             "queued before it, and a blocking copy holds the host until they and the copy are done"},
};

inline constexpr FieldChoice kPlacementChoices[] = {
    {.value = choice_value(MemoryPlacement::FirstTouch),
     .name = "none",
     .brief = "first touch",
     .help = "Pages where the thread that first writes them runs (the OS default)",
     .alias = "first-touch"},
    {.value = choice_value(MemoryPlacement::GpuLocal),
     .name = "local",
     .brief = "the GPU's NUMA node",
     .help = "Pinned pages on the GPU's NUMA node"},
    {.value = choice_value(MemoryPlacement::Remote),
     .name = "remote",
     .brief = "another node",
     .help = "Pinned pages on another node than the GPU's: every copy to the GPU crosses between sockets"},
    {.value = choice_value(MemoryPlacement::Interleave),
     .name = "interleave",
     .brief = "page by page over every node",
     .help = "Pinned pages spread page by page over all nodes"},
};

// The policies of a thread binding; a CPU list (CpuBindPolicy::CpuList) is written as the list.
inline constexpr FieldChoice kBindPolicyChoices[] = {
    {.value = choice_value(CpuBindPolicy::None),
     .name = "none",
     .help = "Not bound: the OS runs the thread on any CPU"},
    {.value = choice_value(CpuBindPolicy::GpuLocal),
     .name = "local",
     .brief = "the GPU's NUMA node",
     .help = "Bound to the CPUs of the GPU's NUMA node"},
    {.value = choice_value(CpuBindPolicy::Remote),
     .name = "remote",
     .brief = "another node",
     .help = "Bound to the CPUs of another NUMA node than the GPU's: what the wrong socket costs"},
};

// The choice's name; "unknown" when `value` is none of them.
std::string_view choice_name(std::span<const FieldChoice> choices, std::uint8_t value);
// The value named `text` (its name or alias, in any case); nothing when none is.
std::optional<std::uint8_t> find_choice(std::span<const FieldChoice> choices, std::string_view text);

}  // namespace pinscope
