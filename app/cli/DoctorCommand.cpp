// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DoctorCommand.h"

#include <iostream>

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/doctor/MachineCheck.h"

namespace pinscope::cli {

DoctorCommand::DoctorCommand(CLI::App& app)
    : command_(app.add_subcommand("doctor", "Check this machine for what limits or slows pinning the configuration")),
      flags_(*command_, ConfigFlags::Mode::Run) {
    command_->add_option("--root", root_, "read /proc and /sys under this folder instead of / (for tests)")
        ->type_name("DIR");
    command_->footer("Exits 0 whatever it finds; 2 for bad arguments.");
}

bool DoctorCommand::selected() const { return command_->parsed(); }

int DoctorCommand::execute() const {
    const LoaderConfig config = flags_.config();
    flags_.validate(config);
    // The driver is asked only about this machine; a fake tree has its own answer.
    const CudaDeviceList cuda =
        root_ == "/" ? list_cuda_devices() : CudaDeviceList{{}, "not asked (--root " + root_ + ")"};
    std::cout << check_lines_text(check_machine(config, root_, cuda)) << std::flush;
    return kExitOk;
}

}  // namespace pinscope::cli
