// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/ByteFormat.h"
#include "engine/text/Units.h"

namespace pinscope::ui {

QString memory_text(double bytes, int decimals) { return QString::fromStdString(pinscope::memory_text(bytes, decimals)); }

}  // namespace pinscope::ui
