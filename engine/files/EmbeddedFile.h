// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A file of resources/ compiled into the programs (see cmake/EmbedFiles.cmake).
#include <string>

namespace pinscope {

struct EmbeddedFile {
    std::string name;      // file stem: "h200-pcie5"
    std::string contents;
};

}  // namespace pinscope
