// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/about/AboutDialog.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtGlobal>

#include <qcustomplot.h>

#include "ui/style/AppIcon.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

namespace {
constexpr int kIconSize = 96;

// Qt's version at run time, and the one built against when they differ.
std::string qt_version() {
    std::string text = qVersion();
    if (text != QT_VERSION_STR) text += " (built with " QT_VERSION_STR ")";
    return text;
}
}  // namespace

std::vector<NamedVersion> about_lines() {
    const BuildInfo build = build_info();
    std::vector<NamedVersion> lines{{"Version", build.version},
                                    {"Commit", build.commit},
                                    {"Build type", build.build_type},
                                    {"Licence", build.licence + " (GNU GPL version 3 or later; no warranty)"},
                                    {"Qt", qt_version()},
                                    {"QCustomPlot", QCUSTOMPLOT_VERSION_STR}};
    for (NamedVersion& library : engine_library_versions()) lines.push_back(std::move(library));
    return lines;
}

QString about_text(const std::vector<NamedVersion>& lines) {
    QString text;
    for (const NamedVersion& line : lines)
        text += QString::fromStdString(line.name) + QStringLiteral(": ") + QString::fromStdString(line.version) + QLatin1Char('\n');
    return text;
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent), lines_(about_lines()) {
    setWindowTitle(QStringLiteral("About pinscope"));
    auto* icon = new QLabel;
    icon->setPixmap(QPixmap::fromImage(render_app_icon(kIconSize)));
    icon->setAlignment(Qt::AlignTop);
    auto* title = new QLabel(QStringLiteral("pinscope %1").arg(QString::fromStdString(build_info().version)));
    title->setFont(app_font(16, true));
    auto* summary = new QLabel(QStringLiteral("Watch batches travel from host memory to the GPU: workers, pinning, copies, kernels."));
    summary->setWordWrap(true);

    QString rows;
    for (const NamedVersion& line : lines_)
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(QString::fromStdString(line.name).toHtmlEscaped(), QString::fromStdString(line.version).toHtmlEscaped());
    table_ = new QLabel(QStringLiteral("<table cellpadding=2>%1</table>").arg(rows));
    table_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* text = new QVBoxLayout;
    text->addWidget(title);
    text->addWidget(summary);
    text->addSpacing(8);
    text->addWidget(table_);
    auto* top = new QHBoxLayout;
    top->addWidget(icon);
    top->addSpacing(12);
    top->addLayout(text, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* copy = buttons->addButton(QStringLiteral("Copy"), QDialogButtonBox::ActionRole);
    copy->setToolTip(QStringLiteral("Copy these lines, for a bug report"));
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(about_text(lines_)); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

QString AboutDialog::table_text() const { return table_->text(); }

}  // namespace pinscope::ui
