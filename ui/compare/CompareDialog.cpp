// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/CompareDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <vector>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/sweep/SweepPlan.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"
#include "ui/compare/ComparisonSides.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {
namespace {

// "run 2 · 14:07:37 · workers=2 prefetch=2 pin_memory=off pin_mode=- · 360.7 batches/s"
QString run_item(const RecordedRunInfo& info) {
    QString text = QStringLiteral("run %1 · %2 · %3").arg(info.id).arg(QString::fromStdString(info.started_utc).mid(11, 8),
                                                                      QString::fromStdString(describe_sweep_point(info.config)));
    if (info.batches_per_s) text += QStringLiteral(" · %1 batches/s").arg(QString::fromStdString(format_fixed(*info.batches_per_s, 1)));
    if (!info.finished) text += QStringLiteral(" · unfinished");
    return text;
}

}  // namespace

CompareDialog::CompareDialog(const std::optional<RunReference>& shown, const QString& folder, QWidget* parent)
    : QDialog(parent), shown_(shown), folder_(folder) {
    setWindowTitle(QStringLiteral("Compare two recorded runs"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(QStringLiteral("Their timelines one above the other on one time axis, their plots overlaid, "
                                            "and every figure with B − A and B / A."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* grid = new QGridLayout;
    grid->setColumnStretch(2, 1);
    int row = 0;
    for (const RunSide which : kSides) {
        Side& s = side(which);
        auto* badge = new QLabel(side_letter(which));
        badge->setFont(app_font(12, true));
        badge->setAlignment(Qt::AlignCenter);
        badge->setFixedWidth(28);
        badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; border-radius: 4px; }").arg(side_color(which).name()));
        s.path = new QLineEdit;
        s.path->setPlaceholderText(QStringLiteral("a recording (pinscope-cli run --record FILE)"));
        s.path->setMinimumWidth(420);
        s.path->setObjectName(QStringLiteral("path%1").arg(side_letter(which)));
        auto* browse_button = new QPushButton(QStringLiteral("Browse…"));
        s.runs = new QComboBox;
        s.runs->setObjectName(QStringLiteral("runs%1").arg(side_letter(which)));
        s.runs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        s.problem = new QLabel;
        s.problem->setStyleSheet(QStringLiteral("QLabel { color: #A4262C; }"));
        s.problem->setWordWrap(true);
        grid->addWidget(badge, row, 0, 2, 1, Qt::AlignTop);
        grid->addWidget(new QLabel(QStringLiteral("File")), row, 1);
        grid->addWidget(s.path, row, 2);
        grid->addWidget(browse_button, row, 3);
        grid->addWidget(new QLabel(QStringLiteral("Run")), row + 1, 1);
        grid->addWidget(s.runs, row + 1, 2, 1, 2);
        grid->addWidget(s.problem, row + 2, 2, 1, 2);
        row += 3;
        connect(browse_button, &QPushButton::clicked, this, [this, which] { browse(which); });
        connect(s.path, &QLineEdit::editingFinished, this, [this, which] {
            if (side(which).path->isModified()) set_file(which, side(which).path->text());
        });
        connect(s.runs, qOverload<int>(&QComboBox::currentIndexChanged), this, &CompareDialog::update_ok);
    }
    layout->addLayout(grid);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons_->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Compare"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons_);

    if (shown_) {
        // A: the run shown; B: another run of its file, the one before it when it is the last.
        set_file(RunSide::A, QString::fromStdString(shown_->path));
        set_run(RunSide::A, shown_->run);
        if (side(RunSide::A).runs->count() > 1 && set_file(RunSide::B, QString::fromStdString(shown_->path))) {
            const int at = side(RunSide::A).runs->currentIndex();
            side(RunSide::B).runs->setCurrentIndex(at == side(RunSide::A).runs->count() - 1 ? at - 1 : side(RunSide::A).runs->count() - 1);
        }
    }
    update_ok();
}

bool CompareDialog::set_file(RunSide which, const QString& path) {
    Side& s = side(which);
    s.path->setText(path);
    s.path->setModified(false);
    s.runs->clear();
    s.problem->clear();
    if (path.isEmpty()) {
        update_ok();
        return false;
    }
    try {
        const RecordingReader reader(path.toStdString());
        const std::vector<RecordedRunInfo> runs = reader.runs();
        if (runs.empty()) throw RecordingError(printable_path(path.toStdString()) + ": the recording holds no run yet");
        for (const RecordedRunInfo& info : runs) {
            const bool is_shown = shown_ && QFileInfo(QString::fromStdString(shown_->path)) == QFileInfo(path) && shown_->run == info.id;
            s.runs->addItem(run_item(info) + (is_shown ? QStringLiteral(" · the run shown") : QString()),
                            QVariant::fromValue<qlonglong>(info.id));
        }
        s.runs->setCurrentIndex(s.runs->count() - 1);
    } catch (const std::exception& e) {
        s.problem->setText(QString::fromStdString(e.what()));
    }
    update_ok();
    return s.runs->count() > 0;
}

bool CompareDialog::set_run(RunSide which, std::int64_t run) {
    Side& s = side(which);
    const int at = s.runs->findData(QVariant::fromValue<qlonglong>(run));
    if (at < 0) return false;
    s.runs->setCurrentIndex(at);
    return true;
}

RunReference CompareDialog::chosen(RunSide which) const {
    const Side& s = side(which);
    if (s.runs->currentIndex() < 0) return {s.path->text().toStdString(), 0};
    return {s.path->text().toStdString(), s.runs->currentData().toLongLong()};
}

QString CompareDialog::problem(RunSide which) const {
    const Side& s = side(which);
    if (!s.problem->text().isEmpty()) return s.problem->text();
    if (s.path->text().isEmpty()) return QStringLiteral("no recording chosen");
    if (s.runs->currentIndex() < 0) return QStringLiteral("no run chosen");
    return {};
}

void CompareDialog::browse(RunSide which) {
    const QString start = side(which).path->text().isEmpty() ? folder_ : QFileInfo(side(which).path->text()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Run %1: a recording").arg(side_letter(which)), start,
                                                      QStringLiteral("pinscope recording (*.pinscope *.db *.sqlite);;All files (*)"));
    if (path.isEmpty()) return;
    folder_ = QFileInfo(path).absolutePath();
    set_file(which, path);
}

void CompareDialog::update_ok() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem(RunSide::A).isEmpty() && problem(RunSide::B).isEmpty());
}

}  // namespace pinscope::ui
