// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliManPage.h"

#include <CLI/CLI.hpp>

#include "app/cli/ExitCodes.h"
#include "app/common/ManPage.h"
#include "engine/about/ProgramInfo.h"

namespace pinscope::cli {

namespace {

bool hidden(const CLI::Option* option) { return option->get_group().empty(); }

std::string comma_spaced(std::string names) {
    for (std::size_t at = names.find(','); at != std::string::npos; at = names.find(',', at + 2)) names.insert(at + 1, " ");
    return names;
}

app::ManOption describe(const CLI::Option* option) {
    app::ManOption out;
    out.names = comma_spaced(option->get_name(false, true));
    if (option->get_type_size() != 0) out.value = option->get_type_name();
    if (option->get_expected_max() >= CLI::detail::expected_max_vector_size) out.value += " ...";
    out.text = option->get_description();
    out.default_value = option->get_default_str();
    return out;
}

// "run [OPTIONS] FILE": the command's positionals as --help's usage line writes them.
std::string usage(const CLI::App& command) {
    std::string line = command.get_name() + " [OPTIONS]";
    for (const CLI::Option* option : command.get_options([](const CLI::Option* o) { return o->get_positional() && !hidden(o); }))
        line += " " + std::string(option->get_required() ? "" : "[") + option->get_name(true, false) + (option->get_required() ? "" : "]");
    return line;
}

app::ManSection options_of(const CLI::App& command, const std::string& heading) {
    app::ManSection section{heading, {}, {}, {}};
    const CLI::Option* help = command.get_help_ptr();
    for (const CLI::Option* option : command.get_options()) {
        if (hidden(option)) continue;
        // Each command's own --help is said once, in the description of the commands.
        if (option == help && command.get_parent() != nullptr) continue;
        section.options.push_back(describe(option));
    }
    return section;
}

}  // namespace

std::string cli_man_page(CLI::App& app) {
    app::ManPageText page;
    page.program = kProgram;
    page.version = "pinscope " + build_info().version;
    page.summary = "watch batches travel from host memory to the GPU, without a display";
    page.synopsis = {"COMMAND [OPTIONS]", "--help | --version", "COMMAND --help"};
    page.description = app.get_description() + "\n\n" + app.get_footer() +
                       "\n\nEvery configuration flag of run and sweep has a key of the same name in a --config JSON file; the "
                       "flags override the file. The desktop application, pinscope(1), shows the same runs live.";
    page.sections.push_back(options_of(app, "OPTIONS"));
    page.commands_heading = "COMMANDS";
    for (CLI::App* command : app.get_subcommands({})) {
        if (command->get_group().empty()) continue;
        app::ManSection section = options_of(*command, command->get_name());
        section.text = std::string(kProgram) + " " + usage(*command) + "\n\n" + command->get_description() + ".";
        section.after = command->get_footer();
        page.sections.push_back(std::move(section));
    }
    page.exit_status = {{"0", "success"},
                        {"1", "the run or a file failed: a device error, a run error, a file that could not be written"},
                        {"2", "bad input: a flag, a value, a configuration file or a recording that is not allowed; the "
                              "message names it and what is allowed"},
                        {"130, 143", "stopped by SIGINT (Ctrl-C) or SIGTERM, once what the run had made was written"}};
    page.see_also = {"pinscope(1)"};
    return app::man_page_roff(page);
}

}  // namespace pinscope::cli
