// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope's icon (resources/icons): memory module -> pinned batch -> GPU chip. Drawn from the SVGs
// in the resources, the 16-pixel-grid one for sizes up to 32, so the window, the taskbar and the
// installed PNGs (rendered by the build with the same function) look alike.
#include <QIcon>
#include <QImage>

namespace pinscope::ui {

// The icon at `size` x `size` pixels; null if the resources hold no icon.
QImage render_app_icon(int size);

// Every size a window manager asks for (16 to 256).
QIcon app_icon();

}  // namespace pinscope::ui
