// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/MachineCheckDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "engine/text/UntrustedText.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

// The word carries the verdict; the colour only helps the eye.
QString verdict_cell(Verdict verdict) {
    switch (verdict) {
        case Verdict::Ok: return QStringLiteral("<td style='background:#E3F1DF; color:#1E5E1E'><b>OK</b></td>");
        case Verdict::Note: return QStringLiteral("<td style='background:#FFF4D6; color:#7A5500'><b>NOTE</b></td>");
        case Verdict::Warn: return QStringLiteral("<td style='background:#FDE2DF; color:#9B1C1C'><b>WARN</b></td>");
    }
    return {};
}

// The lines are the engine's sentences, with what the machine's files say inside (a driver's version).
QString printable_html(const std::string& text) { return QString::fromStdString(printable(text, 2000)).toHtmlEscaped(); }

}  // namespace

MachineCheckDialog::MachineCheckDialog(const LoaderConfig& config, const CudaDeviceList& cuda, QWidget* parent,
                                       std::string root)
    : QDialog(parent), config_(config), cuda_(cuda), root_(std::move(root)) {
    setWindowTitle(QStringLiteral("Check this machine"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(QStringLiteral("What on this machine limits or slows pinning, for the configuration in the "
                                            "controls (the same checks as <tt>pinscope-cli doctor</tt>)."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    table_ = new QTextBrowser;
    table_->setOpenLinks(false);
    table_->setFont(app_font(9));
    layout->addWidget(table_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* copy = buttons->addButton(QStringLiteral("Copy"), QDialogButtonBox::ActionRole);
    copy->setToolTip(QStringLiteral("Copy the checks as text, as pinscope-cli doctor prints them"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(plain_text()); });
    QPushButton* again = buttons->addButton(QStringLiteral("Check again"), QDialogButtonBox::ActionRole);
    connect(again, &QPushButton::clicked, this, &MachineCheckDialog::check);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(900, 520);
    check();
}

void MachineCheckDialog::check() {
    lines_ = check_machine(config_, root_, cuda_);
    QString rows;
    for (const CheckLine& line : lines_)
        rows += QStringLiteral("<tr>%1<td><b>%2</b></td><td>%3</td></tr>").arg(verdict_cell(line.verdict), printable_html(line.name), printable_html(line.text));
    table_->setHtml(QStringLiteral("<table cellpadding=4 cellspacing=0 border=0 width='100%'>"
                                   "<tr><th align=left>verdict</th><th align=left>check</th><th align=left>found, and what it "
                                   "means for pinning</th></tr>%1</table>")
                        .arg(rows));
}

QString MachineCheckDialog::plain_text() const { return QString::fromStdString(check_lines_text(lines_)); }
QString MachineCheckDialog::shown_html() const { return table_->toHtml(); }

}  // namespace pinscope::ui
