// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Byte counts as people read them: binary units for memory ("192 MiB", "5.9 GiB").
#include <QString>

#include <cstdint>

namespace pinscope::ui {

QString memory_text(double bytes, int decimals = 1);

}  // namespace pinscope::ui
