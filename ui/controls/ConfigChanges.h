// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What changed between two configurations, as the engine's reconfigure markers say it.
#include <QString>
#include <QStringList>

#include "engine/config/LoaderConfig.h"

namespace pinscope::ui {

// "pin_memory: on → off, num_workers: 4 → 6"; empty when nothing changed.
QString change_text(const LoaderConfig& before, const LoaderConfig& after);
// The configuration keys that differ: "pin_memory", "num_workers".
QStringList changed_fields(const LoaderConfig& before, const LoaderConfig& after);

}  // namespace pinscope::ui
