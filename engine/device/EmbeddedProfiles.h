// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The JSON profiles of resources/profiles, compiled in (see cmake/EmbedFiles.cmake).
#include <string>
#include <vector>

namespace pinscope {

struct EmbeddedFile {
    std::string name;      // file stem: "h200-pcie5"
    std::string contents;
};

const std::vector<EmbeddedFile>& embedded_profiles();

}  // namespace pinscope
