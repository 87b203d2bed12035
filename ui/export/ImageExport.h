// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Screenshots of the window or of one plot, as PNG (at a scale, for high-DPI slides), SVG or PDF,
// chosen by the file's suffix. A single plot (or the NUMA drawing) goes out as vectors in SVG and
// PDF; a window of widgets as the PNG's picture at 2x inside them, so that all three show the same.
#include <QString>

#include <optional>

class QWidget;

namespace pinscope::ui {

enum class ImageFormat { Png, Svg, Pdf };

std::optional<ImageFormat> image_format_of(const QString& path);
QString image_file_filter();  // for file dialogs

// Throws std::runtime_error ("cannot write FILE: reason") on an unknown suffix or a failed write.
void save_widget_image(QWidget& widget, const QString& path, double scale = 1);

}  // namespace pinscope::ui
