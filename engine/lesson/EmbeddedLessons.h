// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lesson files of resources/lessons, compiled in (see cmake/EmbedFiles.cmake).
#include <vector>

#include "engine/files/EmbeddedFile.h"

namespace pinscope {

const std::vector<EmbeddedFile>& embedded_lessons();

}  // namespace pinscope
