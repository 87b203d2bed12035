// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DevicesCommand.h"

#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/ProfileTrust.h"

namespace pinscope::cli {

namespace {

constexpr double kProbeBytes = 16.0 * 1024 * 1024;  // the size the H2D figures are quoted at

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

void print_cuda_devices() {
    const CudaDeviceList list = list_cuda_devices();
    if (list.devices.empty()) {
        std::cout << "CUDA: none (" << list.why_none << ")\n";
        return;
    }
    std::cout << "CUDA:\n";
    for (std::size_t i = 0; i < list.devices.size(); ++i) {
        const DeviceInfo& device = list.devices[i];
        std::cout << "  cuda:" << i << "  " << device.name;
        if (!device.detail.empty()) std::cout << ", " << device.detail;
        std::cout << '\n';
    }
}

void print_profile(const HardwareProfile& profile) {
    std::cout << "  " << profile.name << (profile.name == kDefaultProfile ? " (default)" : "") << "  "
              << profile.description << '\n'
              << "      link " << profile.link_name << " (" << fixed(profile.link_gb_per_s, 1) << " GB/s), "
              << profile.host_cores << " host cores, H2D at 16 MiB: pinned "
              << fixed(profile.h2d_bytes_per_s(kProbeBytes, true) / 1e9, 1) << " GB/s, pageable "
              << fixed(profile.h2d_bytes_per_s(kProbeBytes, false) / 1e9, 1) << " GB/s\n"
              << "      " << trust_summary(profile) << '\n';
}

}  // namespace

DevicesCommand::DevicesCommand(CLI::App& app)
    : command_(app.add_subcommand("devices", "List CUDA devices and the emulated device's hardware profiles")) {}

bool DevicesCommand::selected() const { return command_->parsed(); }

int DevicesCommand::execute() const {
    print_cuda_devices();
    std::cout << "Emulated (--device emulated:PROFILE, or a profile JSON file):\n";
    int status = kExitOk;
    for (const std::string& name : builtin_profile_names()) {
        try {
            print_profile(load_profile(name));
        } catch (const std::exception& e) {
            std::cerr << kProgram << ": profile " << name << ": " << e.what() << '\n';
            status = kExitFailure;
        }
    }
    return status;
}

}  // namespace pinscope::cli
