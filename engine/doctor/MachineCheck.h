// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli doctor: what on this machine limits or slows pinning, each with a verdict and what
// it means for the configuration. Every probe reads files under a root folder ("/" for this
// machine; tests point it at a fake /proc and /sys tree).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/device/CudaDeviceList.h"

namespace pinscope {

enum class Verdict : std::uint8_t { Ok, Note, Warn };
std::string_view to_string(Verdict verdict);  // "ok", "note", "warn"

struct CheckLine {
    std::string name;     // "memlock", "pcie link 0000:c1:00.0"
    Verdict verdict = Verdict::Ok;
    std::string text;     // what was found and what it means for pinning
};

// `cuda`: the driver's device list (list_cuda_devices(); tests pass their own).
std::vector<CheckLine> check_machine(const LoaderConfig& config, const std::string& root, const CudaDeviceList& cuda);

// The lines as `pinscope-cli doctor` prints them (and the window's Check this machine copies):
// "warn  memlock        RLIMIT_MEMLOCK 64 KiB: ...", one per check.
std::string check_lines_text(const std::vector<CheckLine>& lines);

}  // namespace pinscope
