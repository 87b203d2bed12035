// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The combinations of a parameter sweep, shared by `pinscope-cli sweep` and the GUI.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/LoaderConfig.h"

namespace pinscope {

// Values to try for each axis; an empty axis keeps the base configuration's value.
struct SweepAxes {
    std::vector<std::uint32_t> workers;
    std::vector<std::uint32_t> prefetch;
    std::vector<bool> pin_memory;
    std::vector<PinMode> pin_mode;
    std::vector<CopyStream> copy_stream;
    std::vector<CpuBinding> bind;  // the workers', the pin thread's and the consumer's, together
    std::vector<MemoryPlacement> membind;
};

// The cartesian product in the order workers, prefetch, pin_memory, pin_mode, copy_stream, bind,
// membind (the last varies fastest), following PyTorch's rules: with 0 workers prefetch_factor is left unset, and with
// pin_memory off the pin mode keeps the base value; combinations that these rules make equal
// appear once, at their first position. The result is not validated.
std::vector<LoaderConfig> expand_sweep(const LoaderConfig& base, const SweepAxes& axes);

// The prefetch factor and pin mode a combination runs with; nullopt where PyTorch ignores them
// (no workers, pin_memory off).
std::optional<std::uint32_t> applied_prefetch(const LoaderConfig& config);
std::optional<PinMode> applied_pin_mode(const LoaderConfig& config);

// "workers=4 prefetch=2 pin_memory=on pin_mode=pool"; prefetch and pin_mode are "-" where they
// do not apply; " copy_stream=compute" follows where it is not the default, then " bind=local
// membind=remote" where either is not the default.
std::string describe_sweep_point(const LoaderConfig& config);

// The three bindings as one word when they are the same ("local"), else "workers 0-3, pin thread
// local, consumer none".
std::string describe_bindings(const LoaderConfig& config);

}  // namespace pinscope
