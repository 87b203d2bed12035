// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope's options, one table: the command line parser (CommandLine.cpp) and the manual page
// (DesktopManPage.cpp) both read it, so --help and `man pinscope` say the same.
#include <array>

namespace pinscope::desktop {

struct DesktopOption {
    const char* name;           // "screenshot" (given as --screenshot)
    const char* value_name;     // "FILE"
    const char* help;
    const char* default_value;  // "" when none
};

inline constexpr const char* kDesktopDescription =
    "pinscope: watch batches travel from host memory to the GPU, the way PyTorch's DataLoader moves them.\n"
    "With no options the window opens. With --screenshot it runs headless: starts a run, waits, saves the window as "
    "PNG, SVG or PDF, writes the exports asked for, and exits.";

inline constexpr std::array<DesktopOption, 15> kDesktopOptions{{
    {"screenshot", "FILE", "Save the window to FILE (.png, .svg, .pdf) and exit.", ""},
    {"after", "SECONDS", "Seconds to run before the screenshot (default 3).", "3"},
    {"config", "FILE", "Configuration JSON (the keys of pinscope-cli --config).", ""},
    {"csv", "DIR", "With --screenshot: write spans.csv, counters.csv, numa.csv and summary.json into DIR.", ""},
    {"trace", "FILE", "With --screenshot: write the Chrome trace JSON to FILE.", ""},
    {"scale", "FACTOR", "Device pixel ratio of a PNG screenshot, e.g. 2 for high-DPI (default 1).", "1"},
    {"size", "WxH", "Window size for the screenshot (default 1600x1000).", "1600x1000"},
    {"view", "TAB", "The tab to show: live (timeline and plots) or numa (the NUMA view). Default live.", "live"},
    {"open", "FILE",
     "Show a recording (pinscope-cli run --record) instead of starting a run; the same as giving the FILE alone.", ""},
    {"run", "N", "With a recording: the run to show, by its number (pinscope-cli runs FILE); default the last.", ""},
    {"lesson", "NAME|FILE",
     "Open a lesson (pinscope-cli lesson list, or a lesson file) in the Lessons panel. With --screenshot: run its "
     "steps up to --step, reveal that one and save the window.", ""},
    {"step", "K", "With --lesson: the step to show, from 1 (default 1).", ""},
    {"handout", "FILE.pdf",
     "With --lesson: run every step, write a printable handout (PDF: each step's question, answer with its numbers, "
     "and the window) and exit.", ""},
    {"presenter", "",
     "Presenter mode (View > Presenter, F11): large type, thick lines, colour-blind-safe colours, only what the "
     "lesson's step needs.", ""},
    {"compare", "A",
     "Compare two recorded runs side by side: --compare A B, each a recording (its last run) or FILE:RUN. With "
     "--screenshot: saved once both runs are in.", ""},
}};

// The positional argument: a recording.
inline constexpr DesktopOption kDesktopRecordingArgument{"FILE", "[FILE]", "A recording to show (as --open); with --compare, run B.", ""};

}  // namespace pinscope::desktop
