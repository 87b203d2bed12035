// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/style/AppIcon.h"

#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

// Outside any namespace, as Q_INIT_RESOURCE must be (the icon tool uses this without AppStyle).
static void init_icon_resources() { Q_INIT_RESOURCE(pinscope); }

namespace pinscope::ui {

namespace {
constexpr int kLargestSmallSize = 32;  // pinscope-small.svg is drawn on whole pixels of a 16 grid
}

QImage render_app_icon(int size) {
    init_icon_resources();
    QSvgRenderer svg(size <= kLargestSmallSize ? QStringLiteral(":/icons/pinscope-small.svg") : QStringLiteral(":/icons/pinscope.svg"));
    if (!svg.isValid() || size <= 0) return {};
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter, QRectF(0, 0, size, size));
    return image;
}

QIcon app_icon() {
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) icon.addPixmap(QPixmap::fromImage(render_app_icon(size)));
    return icon;
}

}  // namespace pinscope::ui
