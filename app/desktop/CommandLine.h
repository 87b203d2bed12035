// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope's command line: with no arguments the window opens; --screenshot runs headless (the
// window is built offscreen when there is no display), saves and exits. Every argument, the
// configuration file's contents included, is checked here, before anything starts.
#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>

#include "engine/config/LoaderConfig.h"
#include "engine/record/RunReference.h"

namespace pinscope::desktop {

struct CommandLine {
    QString screenshot;      // empty: interactive
    double after_s = 3;      // run this long before the screenshot
    QString config;          // a configuration JSON file
    std::optional<LoaderConfig> loaded_config;  // its contents, checked as a run would check them
    QString csv_dir;         // spans.csv, counters.csv, numa.csv, summary.json
    QString trace;           // Chrome trace JSON
    double scale = 1;        // device pixel ratio of the PNG
    QSize size{1600, 1000};  // window size for the screenshot
    QString view = QStringLiteral("live");  // the tab shown: "live" or "numa"
    QString recording;                 // a recording to show instead of starting a run
    std::optional<std::int64_t> run;   // its run number; unset: its last run
    QString lesson;                    // a lesson to open (built-in name or file)
    std::optional<std::size_t> step;   // its step, from 1: headless, the steps up to it run and it is revealed
    QString handout;                   // write the lesson's handout (PDF) and exit
    bool presenter = false;            // presenter mode
    std::optional<std::pair<RunReference, RunReference>> compare;  // --compare A B: two recorded runs
    bool headless() const { return !screenshot.isEmpty() || !handout.isEmpty(); }
};

struct ParseResult {
    std::optional<CommandLine> line;  // nullopt: exit with `exit_code` after printing `message`
    int exit_code = 0;
    QString message;
};

ParseResult parse_command_line(const QStringList& arguments);

}  // namespace pinscope::desktop
