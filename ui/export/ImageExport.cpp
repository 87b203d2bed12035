// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/ImageExport.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

#include <qcustomplot.h>

#include <algorithm>
#include <stdexcept>

#include "engine/files/AtomicFile.h"

namespace pinscope::ui {

namespace {

constexpr double kWindowImageScale = 2;  // a window in SVG or PDF: sharp on a high-DPI slide

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw std::runtime_error(QStringLiteral("cannot write %1: %2").arg(path, reason).toStdString());
}

// Renders the plots inside `widget` at `scale` for as long as it lives, so that a 2x screenshot
// has sharp lines and text instead of the on-screen buffers scaled up.
class PlotBufferScale {
public:
    PlotBufferScale(QWidget& widget, double scale) {
        auto plots = widget.findChildren<QCustomPlot*>();
        if (auto* self = qobject_cast<QCustomPlot*>(&widget)) plots.prepend(self);
        for (QCustomPlot* plot : plots) {
            saved_.push_back({plot, plot->bufferDevicePixelRatio()});
            plot->setBufferDevicePixelRatio(scale);
            plot->replot(QCustomPlot::rpImmediateRefresh);
        }
    }
    ~PlotBufferScale() {
        for (const auto& [plot, ratio] : saved_) {
            plot->setBufferDevicePixelRatio(ratio);
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
    PlotBufferScale(const PlotBufferScale&) = delete;
    PlotBufferScale& operator=(const PlotBufferScale&) = delete;

private:
    std::vector<std::pair<QCustomPlot*, double>> saved_;
};

// Every format is drawn into memory first and then written by the one file writer, so that a
// screenshot replaces its file whole or not at all (and goes to a FIFO or device as a stream).
void write_image(const QString& path, const QByteArray& bytes) {
    if (bytes.isEmpty()) fail(path, QStringLiteral("nothing was written"));
    write_file_atomically(QFile::encodeName(path).toStdString(), [&](std::ostream& out) {
        out.write(bytes.constData(), static_cast<std::streamsize>(bytes.size()));
    });
}

QImage render_image(QWidget& widget, const QString& path, double scale) {
    QImage image(widget.size() * scale, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) fail(path, QStringLiteral("the image is too large"));
    image.setDevicePixelRatio(scale);
    image.fill(widget.palette().color(QPalette::Window));
    PlotBufferScale sharp(widget, scale);
    QPainter painter(&image);
    widget.render(&painter);
    return image;
}

QByteArray save_png(QWidget& widget, const QString& path, double scale) {
    const QImage image = render_image(widget, path, scale);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) fail(path, writer.errorString());
    return bytes;
}

bool has_child_widgets(const QWidget& widget) {
    const auto children = widget.findChildren<QWidget*>(Qt::FindDirectChildrenOnly);
    return std::any_of(children.begin(), children.end(), [&](const QWidget* child) {
        return !child->isWindow() && child->isVisibleTo(&widget);
    });
}

void paint_vector(QWidget& widget, QPaintDevice& device, const QString& path) {
    QCPPainter painter;
    if (!painter.begin(&device)) fail(path, QStringLiteral("the file cannot be opened"));
    if (auto* plot = qobject_cast<QCustomPlot*>(&widget)) {
        plot->toPainter(&painter, widget.width(), widget.height());
    } else if (has_child_widgets(widget)) {
        // A window of widgets goes in as the PNG's picture, drawn sharp at kWindowImageScale: drawn
        // into Qt's SVG (6.4: no clipping at all) and PDF writers, widgets are not clipped as on
        // screen: the selected tab's white box covered the "batches/s" caption in both, and a
        // scrolled panel's content spilled over its title. Only the raster path draws them right.
        painter.drawImage(QRectF(QPointF(0, 0), QSizeF(widget.size())), render_image(widget, path, kWindowImageScale));
    } else {
        widget.render(&painter);
    }
    if (!painter.end()) fail(path, QStringLiteral("writing failed"));
}

QByteArray save_svg(QWidget& widget, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(widget.size());
    svg.setViewBox(QRect(QPoint(0, 0), widget.size()));
    svg.setTitle(QStringLiteral("pinscope"));
    paint_vector(widget, svg, path);
    return bytes;
}

QByteArray save_pdf(QWidget& widget, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("pinscope"));
        pdf.setResolution(96);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(widget.size()) * 72.0 / 96.0, QPageSize::Point, QString(), QPageSize::ExactMatch));
        paint_vector(widget, pdf, path);
    }
    return bytes;
}

}  // namespace

std::optional<ImageFormat> image_format_of(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("png")) return ImageFormat::Png;
    if (suffix == QStringLiteral("svg")) return ImageFormat::Svg;
    if (suffix == QStringLiteral("pdf")) return ImageFormat::Pdf;
    return std::nullopt;
}

QString image_file_filter() {
    return QStringLiteral("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

void save_widget_image(QWidget& widget, const QString& path, double scale) {
    const auto format = image_format_of(path);
    if (!format) fail(path, QStringLiteral("the name must end in .png, .svg or .pdf"));
    if (!(scale >= 0.25 && scale <= 8)) fail(path, QStringLiteral("the scale must be from 0.25 to 8"));
    QByteArray bytes;
    switch (*format) {
        case ImageFormat::Png: bytes = save_png(widget, path, scale); break;
        case ImageFormat::Svg: bytes = save_svg(widget, path); break;
        case ImageFormat::Pdf: bytes = save_pdf(widget, path); break;
    }
    write_image(path, bytes);
}

}  // namespace pinscope::ui
