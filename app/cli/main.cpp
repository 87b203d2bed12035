// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli: the headless front end. Sets up the command line and dispatches to a command.
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

// GCC 12 reports a null dereference inside CLI11's inlined string splitting that cannot happen.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "app/cli/BandwidthCommand.h"
#include "app/cli/CalibrateCommand.h"
#include "app/cli/CombineProfilesCommand.h"
#include "app/cli/CliManPage.h"
#include "app/cli/CompareCommand.h"
#include "app/cli/DevicesCommand.h"
#include "app/cli/DoctorCommand.h"
#include "app/cli/ExitCodes.h"
#include "app/cli/ExportCommand.h"
#include "app/cli/LessonCommand.h"
#include "app/cli/RunCommand.h"
#include "app/cli/RunsCommand.h"
#include "app/cli/ShowCommand.h"
#include "app/cli/SweepCommand.h"
#include "app/cli/TopologyCommand.h"
#include "app/cli/ValidateCommand.h"
#include "engine/about/ProgramInfo.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/UntrustedText.h"

namespace {

using namespace pinscope::cli;

// CLI11's own messages, mapped to pinscope-cli's exit code for bad input.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error) {
    const auto chosen = app.get_subcommands();
    const std::string help =
        std::string(kProgram) + (chosen.empty() ? "" : " " + chosen.front()->get_name()) + " --help";
    // CLI11 quotes the arguments it did not expect as they were typed.
    std::cerr << kProgram << ": " << pinscope::printable(error.what(), 4 * pinscope::kEchoChars) << " (see " << help << ")\n";
    return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app("Shows how batches travel from host memory to the GPU, without a display.", kProgram);
    app.set_version_flag("--version", pinscope::version_text(kProgram));
    app.footer("Run 'pinscope-cli COMMAND --help' for a command's flags.");
    const RunCommand run(app);
    const SweepCommand sweep(app);
    const DevicesCommand devices(app);
    const BandwidthCommand bandwidth(app);
    const CalibrateCommand calibrate(app, shell_command_line(argc, argv));
    const CombineProfilesCommand combine_profiles(app, shell_command_line(argc, argv));
    const TopologyCommand topology(app);
    const RunsCommand runs(app);
    const ShowCommand show(app);
    const ExportCommand export_command(app);
    const CompareCommand compare(app);
    const DoctorCommand doctor(app);
    const LessonCommand lesson(app);
    const ValidateCommand validate(app, shell_command_line(argc, argv));

    if (argc == 2 && std::string_view(argv[1]) == kHelpManFlag) {  // for the build: the manual page
        std::cout << cli_man_page(app);
        return 0;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_parse_error(app, e);
    }

    try {
        if (run.selected()) return run.execute();
        if (sweep.selected()) return sweep.execute();
        if (devices.selected()) return devices.execute();
        if (bandwidth.selected()) return bandwidth.execute();
        if (calibrate.selected()) return calibrate.execute();
        if (combine_profiles.selected()) return combine_profiles.execute();
        if (topology.selected()) return topology.execute();
        if (runs.selected()) return runs.execute();
        if (show.selected()) return show.execute();
        if (export_command.selected()) return export_command.execute();
        if (compare.selected()) return compare.execute();
        if (doctor.selected()) return doctor.execute();
        if (lesson.selected()) return lesson.execute();
        if (validate.selected()) return validate.execute();
        std::cerr << app.help();
        return kExitUsage;
    } catch (const UsageError& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return kExitUsage;
    } catch (const pinscope::RecordingError& e) {  // a file that is not a recording this version reads: bad input
        std::cerr << kProgram << ": " << e.what() << '\n';
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return kExitFailure;
    }
}
