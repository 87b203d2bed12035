// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/ConfigChanges.h"

namespace pinscope::ui {

QString change_text(const LoaderConfig& before, const LoaderConfig& after) {
    QStringList parts;
    for (const auto& line : describe_changes(before, after)) parts << QString::fromStdString(line);
    return parts.join(QStringLiteral(", ")).replace(QStringLiteral(" -> "), QStringLiteral(" → "));
}

QStringList changed_fields(const LoaderConfig& before, const LoaderConfig& after) {
    QStringList fields;
    for (const auto& line : describe_changes(before, after))  // "field: old -> new"
        fields << QString::fromStdString(line.substr(0, line.find(':')));
    return fields;
}

}  // namespace pinscope::ui
