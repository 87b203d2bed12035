// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/style/AppStyle.h"

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>
#include <QStyleFactory>

#include <cmath>

// Q_INIT_RESOURCE must be called outside any namespace; calling it from the library also makes
// the linker keep the resources of this static library.
static void init_pinscope_resources() { Q_INIT_RESOURCE(pinscope); }

namespace pinscope::ui {

namespace {
const QString kFamily = QStringLiteral("DejaVu Sans");
double g_font_scale = 1;  // GUI thread only
}  // namespace

void set_font_scale(double scale) { g_font_scale = scale; }
double font_scale() { return g_font_scale; }

bool install_app_font() {
    init_pinscope_resources();
    const int regular = QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans.ttf"));
    const int bold = QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans-Bold.ttf"));
    if (regular < 0 || bold < 0) return false;
    QApplication::setFont(app_font());
    return true;
}

QFont app_font(int point_size, bool bold) {
    QFont font(kFamily, static_cast<int>(std::lround(point_size * g_font_scale)), bold ? QFont::Bold : QFont::Normal);
    font.setStyleHint(QFont::SansSerif);
    font.setHintingPreference(QFont::PreferNoHinting);  // the same glyphs on every platform
    return font;
}

namespace {
QtMessageHandler g_previous_handler = nullptr;

void filter_message(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QStringLiteral("propagateSizeHints")) || message.contains(QStringLiteral("XDG_RUNTIME_DIR")))
        return;
    if (g_previous_handler) g_previous_handler(type, context, message);
}
}  // namespace

void quiet_platform_noise() {
    QtMessageHandler previous = qInstallMessageHandler(filter_message);
    if (previous != filter_message) g_previous_handler = previous;
}

void install_app_style(QApplication& app) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(0xF3, 0xF4, 0xF6));
    palette.setColor(QPalette::WindowText, QColor(0x1F, 0x23, 0x28));
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xF6, 0xF8, 0xFA));
    palette.setColor(QPalette::Text, QColor(0x1F, 0x23, 0x28));
    palette.setColor(QPalette::Button, QColor(0xFA, 0xFB, 0xFC));
    palette.setColor(QPalette::ButtonText, QColor(0x1F, 0x23, 0x28));
    palette.setColor(QPalette::Highlight, QColor(0x2F, 0x6F, 0xDB));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(0xFF, 0xFF, 0xF2));
    palette.setColor(QPalette::ToolTipText, QColor(0x1F, 0x23, 0x28));
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0x9A, 0xA0, 0xA6));
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x9A, 0xA0, 0xA6));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x9A, 0xA0, 0xA6));
    app.setPalette(palette);
}

}  // namespace pinscope::ui
