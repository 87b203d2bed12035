// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lesson's text as HTML, escaped: a lesson's < and & show as written.
#include <QString>

#include <string>

namespace pinscope::ui {

inline QString lesson_html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

}  // namespace pinscope::ui
