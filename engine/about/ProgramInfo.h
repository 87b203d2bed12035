// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What --version and the About dialog say about this build of pinscope: its version, the commit it
// was built from, the build type and licence, and the versions of the libraries the engine uses
// (the window adds Qt's and QCustomPlot's).
#include <string>
#include <string_view>
#include <vector>

namespace pinscope {

struct BuildInfo {
    std::string version;     // "0.1.0"
    std::string commit;      // git describe at build time: "858287b5d6e1", "...-dirty", or "unknown (...)"
    std::string build_type;  // CMAKE_BUILD_TYPE: "Release", "RelWithDebInfo"
    std::string licence;     // SPDX: "GPL-3.0-or-later"
    bool cuda_built_in = false;
};

// Constants of the build: asks no library, so --version stays instant.
BuildInfo build_info();

// One line: "pinscope 0.1.0 (commit 858287b5d6e1, Release build; CUDA device: built in)".
std::string version_text(std::string_view program);

struct NamedVersion {
    std::string name;     // "hwloc", "CUDA runtime"
    std::string version;  // "2.9.0", or why there is none: "not in this build"
};

// hwloc, the CUDA runtime and the NVIDIA driver, asked now (the driver is loaded on first use).
std::vector<NamedVersion> engine_library_versions();

}  // namespace pinscope
