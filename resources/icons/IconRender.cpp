// SPDX-License-Identifier: GPL-3.0-or-later
// A build tool: writes pinscope's icon as PNGs of the hicolor theme's sizes, drawn by the window's
// own render_app_icon, so the installed PNGs always follow the SVGs.
//   pinscope_icon_render OUT_DIR SIZE...   (writes OUT_DIR/SIZE.png)
#include <QDir>
#include <QGuiApplication>
#include <QImage>

#include <cstdio>

#include "ui/style/AppIcon.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: pinscope_icon_render OUT_DIR SIZE...\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QDir out(QString::fromLocal8Bit(argv[1]));
    for (int i = 2; i < argc; ++i) {
        bool ok = false;
        const int size = QString::fromLocal8Bit(argv[i]).toInt(&ok);
        if (!ok || size < 8 || size > 1024) {
            std::fprintf(stderr, "pinscope_icon_render: size %s: expected pixels from 8 to 1024\n", argv[i]);
            return 2;
        }
        const QImage image = pinscope::ui::render_app_icon(size);
        const QString path = out.filePath(QStringLiteral("%1.png").arg(size));
        if (image.isNull() || !image.save(path, "PNG")) {
            std::fprintf(stderr, "pinscope_icon_render: cannot write %s\n", qPrintable(path));
            return 1;
        }
    }
    return 0;
}
