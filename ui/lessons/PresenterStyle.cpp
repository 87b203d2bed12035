// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/PresenterStyle.h"

#include <QApplication>
#include <QWidget>

#include <qcustomplot.h>

#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"

namespace pinscope::ui {
namespace {

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0) font.setPixelSize(static_cast<int>(font.pixelSize() * factor));
    return font;
}

QPen thicker(QPen pen, double factor) {
    pen.setWidthF(std::max(1.0, pen.widthF()) * factor);
    return pen;
}

// Fonts and pens that QCustomPlot keeps in its own objects, not in the widget's font.
void restyle_plot(QCustomPlot& plot, double fonts, double lines) {
    for (QCPAxisRect* rect : plot.axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelFont(scaled(axis->tickLabelFont(), fonts));
            axis->setLabelFont(scaled(axis->labelFont(), fonts));
        }
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
        if (auto* text = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i))) text->setFont(scaled(text->font(), fonts));
    if (plot.legend) plot.legend->setFont(scaled(plot.legend->font(), fonts));
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot.item(i))) text->setFont(scaled(text->font(), fonts));
    for (int i = 0; i < plot.graphCount(); ++i) plot.graph(i)->setPen(thicker(plot.graph(i)->pen(), lines));
    plot.replot(QCustomPlot::rpQueuedReplot);
}

bool g_on = false;

}  // namespace

bool presenter_style_on() { return g_on; }

void set_presenter_style(QWidget& root, bool on) {
    if (on == g_on) return;
    g_on = on;
    const double fonts = on ? kPresenterFontScale : 1 / kPresenterFontScale;
    const double lines = on ? kPresenterLineScale : 1 / kPresenterLineScale;
    set_font_scale(on ? kPresenterFontScale : 1);
    set_presenter_palette(on);
    QApplication::setFont(app_font());  // every widget that has no font of its own
    QList<QWidget*> widgets = root.findChildren<QWidget*>();
    widgets.prepend(&root);
    for (QWidget* widget : widgets) {
        if (widget->testAttribute(Qt::WA_SetFont)) widget->setFont(scaled(widget->font(), fonts));
        // A widget with a style sheet keeps the font it was polished with: give it the new one.
        else if (!widget->styleSheet().isEmpty()) widget->setFont(app_font());
        if (auto* plot = qobject_cast<QCustomPlot*>(widget)) restyle_plot(*plot, fonts, lines);
        widget->update();
    }
}

}  // namespace pinscope::ui
