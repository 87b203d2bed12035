// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/about/ProgramInfo.h"

#include "engine/BuildConfig.h"
#include "engine/about/BuildCommit.h"
#include "engine/device/factory/CudaVersionQuery.h"
#include "engine/files/MachineFiles.h"
#include "engine/topology/HwlocVersion.h"

namespace pinscope {

namespace {

// CUDA numbers versions as 1000 * major + 10 * minor.
std::string cuda_version(int version) { return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10); }

// The kernel module's version from its first line: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun ...".
std::string nvidia_module_version() {
    const std::string text = MachineFiles("/").read("/proc/driver/nvidia/version").value_or("");
    const std::string marker = "Kernel Module";
    const std::size_t at = text.find(marker);
    if (at == std::string::npos) return {};
    const std::size_t start = text.find_first_not_of(' ', at + marker.size());
    if (start == std::string::npos) return {};
    return text.substr(start, text.find_first_of(" \n", start) - start);
}

}  // namespace

BuildInfo build_info() {
    return BuildInfo{PINSCOPE_VERSION, PINSCOPE_COMMIT, PINSCOPE_BUILD_TYPE, "GPL-3.0-or-later", PINSCOPE_HAVE_CUDA != 0};
}

std::string version_text(std::string_view program) {
    const BuildInfo build = build_info();
    return std::string(program) + " " + build.version + " (commit " + build.commit + ", " + build.build_type +
           " build; CUDA device: " + (build.cuda_built_in ? "built in" : "not in this build") + ")";
}

std::vector<NamedVersion> engine_library_versions() {
    std::vector<NamedVersion> versions{{"hwloc", hwloc_version()}};
    if (!build_info().cuda_built_in) {
        versions.push_back({"CUDA runtime", "not in this build"});
        versions.push_back({"NVIDIA driver", "not asked (no CUDA in this build)"});
        return versions;
    }
    const CudaVersions cuda = cuda_versions();
    versions.push_back({"CUDA runtime", cuda_version(cuda.runtime)});
    if (cuda.driver == 0) {
        versions.push_back({"NVIDIA driver", "none found"});
    } else {
        const std::string module = nvidia_module_version();
        versions.push_back({"NVIDIA driver", (module.empty() ? std::string() : module + ", ") + "supports CUDA " + cuda_version(cuda.driver)});
    }
    return versions;
}

}  // namespace pinscope
