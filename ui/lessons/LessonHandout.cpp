// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/LessonHandout.h"

#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QAbstractTextDocumentLayout>
#include <QTextDocument>

#include <stdexcept>

#include "ui/lessons/LessonHtml.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

constexpr int kDpi = 150;

// Draws `text` (HTML) from `top` across the page's width; returns where it ends.
qreal draw_text(QPainter& painter, const QString& text, qreal top, qreal width) {
    QTextDocument document;
    document.documentLayout()->setPaintDevice(painter.device());  // points at the PDF's resolution
    document.setDefaultFont(app_font(10));
    document.setTextWidth(width);
    document.setHtml(text);
    painter.save();
    painter.translate(0, top);
    document.drawContents(&painter);
    painter.restore();
    return top + document.size().height();
}

QString step_html(const LessonSession& session, std::size_t index) {
    const LessonStep& step = session.lesson().steps[index];
    const StepReveal reveal = session.reveal_of(index);
    QString text = QStringLiteral("<h2>Step %1 of %2: %3</h2>").arg(index + 1).arg(session.lesson().steps.size()).arg(lesson_html(step.title));
    if (!step.changes.empty()) {
        QString changes;
        for (const std::string& c : step.changes) changes += (changes.isEmpty() ? QString() : QStringLiteral(", ")) + lesson_html(c);
        text += QStringLiteral("<p style='color:#1F5FAF'>Changes: %1</p>").arg(changes);
    }
    text += QStringLiteral("<p><b>%1</b></p><ol>").arg(lesson_html(step.question));
    for (std::size_t i = 0; i < step.choices.size(); ++i) text += QStringLiteral("<li>%1</li>").arg(lesson_html(step.choices[i]));
    text += QStringLiteral("</ol><p><b>Answer: %1</b></p>").arg(lesson_html(reveal.right_choice));
    if (!reveal.ran) return text + QStringLiteral("<p><i>Not run.</i></p>");
    text += QStringLiteral("<p>%1</p><p><b>Checked on this run:</b><br>").arg(lesson_html(reveal.answer));
    for (const ClaimOutcome& o : reveal.outcomes)
        text += QStringLiteral("%1 %2: %3<br>").arg(o.holds ? QStringLiteral("[holds]") : QStringLiteral("[NOT SHOWN]"), lesson_html(o.statement), lesson_html(o.measured));
    text += QStringLiteral("</p>");
    if (!reveal.absent.empty()) text += QStringLiteral("<p style='background:#FFF4D6'>%1</p>").arg(lesson_html(reveal.absent));
    return text;
}

}  // namespace

void write_handout(const QString& path, const LessonSession& session, const std::vector<QImage>& shots, const QString& device) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) throw std::runtime_error("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
    {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setResolution(kDpi);
        pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        pdf.setTitle(QString::fromStdString(session.lesson().title));
        pdf.setCreator(QStringLiteral("pinscope"));
        QPainter painter(&pdf);
        const qreal width = pdf.width();
        const qreal height = pdf.height();
        // The text is laid out for 10 pt at the writer's resolution.
        const qreal top = draw_text(painter,
                                    QStringLiteral("<h1>%1</h1><p>%2</p><p style='color:#5A626C'>Lesson %3, %4 steps, run on %5.</p>")
                                        .arg(lesson_html(session.lesson().title), lesson_html(session.lesson().learn), lesson_html(session.lesson().name))
                                        .arg(session.lesson().steps.size())
                                        .arg(device.toHtmlEscaped()),
                                    0, width);
        (void)top;
        for (std::size_t i = 0; i < session.lesson().steps.size(); ++i) {
            pdf.newPage();
            qreal y = draw_text(painter, step_html(session, i), 0, width);
            if (i < shots.size() && !shots[i].isNull()) {
                const qreal room = height - y - 20;
                QSizeF size = QSizeF(shots[i].size()).scaled(QSizeF(width, std::max<qreal>(room, height * 0.3)), Qt::KeepAspectRatio);
                if (y + 20 + size.height() > height) {  // no room under the text: the picture gets a page of its own
                    pdf.newPage();
                    y = -20;
                    size = QSizeF(shots[i].size()).scaled(QSizeF(width, height), Qt::KeepAspectRatio);
                }
                painter.drawImage(QRectF(QPointF(0, y + 20), size), shots[i]);
            }
        }
        if (!painter.end()) throw std::runtime_error("cannot write " + path.toStdString() + ": the PDF could not be drawn");
    }
    if (!file.commit()) throw std::runtime_error("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
}

}  // namespace pinscope::ui
