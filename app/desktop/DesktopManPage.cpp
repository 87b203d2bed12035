// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/desktop/DesktopManPage.h"

#include "app/common/ManPage.h"
#include "app/desktop/DesktopOptions.h"
#include "engine/about/ProgramInfo.h"

namespace pinscope::desktop {

std::string desktop_man_page() {
    app::ManPageText page;
    page.program = "pinscope";
    page.version = "pinscope " + build_info().version;
    page.summary = "watch batches travel from host memory to the GPU";
    page.synopsis = {"[OPTIONS] [FILE]", "--screenshot FILE [OPTIONS]"};
    page.description = std::string(kDesktopDescription) +
                       "\n\nThe window shows worker threads building batches, the pin stage copying them into page-locked "
                       "memory, the copy engine moving them to the GPU and the kernel consuming them, on a CUDA GPU or "
                       "an emulated device; every configuration change applies to the running loader at once. Help > "
                       "Keyboard shortcuts lists the keys; Help > About says which versions this build uses.\n\n"
                       "The hardware profiles and sample topologies are built into the program. pinscope-cli(1) runs "
                       "the same loader without a display.";
    app::ManSection options{"OPTIONS", {}, {}, {}};
    // Qt's own: addHelpOption() and addVersionOption() in CommandLine.cpp.
    options.options.push_back({"-h, --help", "", "Displays help on commandline options.", ""});
    options.options.push_back({"--help-all", "", "Displays help including Qt specific options.", ""});
    options.options.push_back({"-v, --version", "", "Displays version information.", ""});
    // The defaults are in the help texts, as --help shows them.
    for (const DesktopOption& option : kDesktopOptions)
        options.options.push_back({std::string("--") + option.name, option.value_name, option.help, ""});
    options.options.push_back({kDesktopRecordingArgument.name, "", kDesktopRecordingArgument.help, ""});
    page.sections.push_back(std::move(options));
    page.exit_status = {{"0", "success"},
                        {"1", "a headless run or an export failed"},
                        {"2", "bad input: an option, a value, a configuration file or a recording that is not allowed; "
                              "the message names it and what is allowed"},
                        {"130, 143", "stopped by SIGINT (Ctrl-C) or SIGTERM"}};
    page.see_also = {"pinscope-cli(1)"};
    return app::man_page_roff(page);
}

}  // namespace pinscope::desktop
