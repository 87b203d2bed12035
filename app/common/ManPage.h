// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A manual page in roff (man(7)), written from what a program's own parser declares, so that the
// page and --help cannot say different things: pinscope-cli walks its CLI11 commands, pinscope its
// option table (each behind a hidden --help-man that the build runs).
#include <string>
#include <vector>

namespace pinscope::app {

struct ManOption {
    std::string names;          // "-h, --help" or "--workers"
    std::string value;          // "FILE", "N"; empty for a switch
    std::string text;           // what it does
    std::string default_value;  // empty when none is shown
};

struct ManSection {
    std::string heading;     // "OPTIONS", or a command's name under COMMANDS
    std::string text;        // a paragraph before its options
    std::vector<ManOption> options;
    std::string after;       // a paragraph after them (a command's footer)
};

struct ManPageText {
    std::string program;      // "pinscope-cli"
    std::string version;      // "pinscope 0.1.0"
    std::string summary;      // for NAME: "watch batches travel from host memory to the GPU"
    std::vector<std::string> synopsis;  // one line each: "[OPTIONS] [FILE]"
    std::string description;  // paragraphs separated by blank lines
    std::vector<ManSection> sections;   // OPTIONS first
    std::string commands_heading;       // when set, sections after the first go under it as subsections
    std::vector<std::pair<std::string, std::string>> exit_status;  // ("0", "success")
    std::vector<std::string> see_also;  // "pinscope(1)"
};

// The page as roff for section 1.
std::string man_page_roff(const ManPageText& page);

// Text made safe for roff: backslashes, hyphens (as \-) and a leading dot or quote escaped.
std::string roff_escape(const std::string& text);

}  // namespace pinscope::app
