// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The JSON profiles of resources/profiles, compiled in (see cmake/EmbedFiles.cmake).
#include <vector>

#include "engine/files/EmbeddedFile.h"

namespace pinscope {

const std::vector<EmbeddedFile>& embedded_profiles();

}  // namespace pinscope
