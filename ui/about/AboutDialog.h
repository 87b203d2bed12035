// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Help > About: pinscope's version, the commit it was built from, the build type and licence, and
// the versions of the libraries it runs with (Qt, QCustomPlot, hwloc, the CUDA runtime and the
// NVIDIA driver), which a bug report wants. "Copy" puts the same lines on the clipboard.
#include <QDialog>
#include <QString>

#include <vector>

#include "engine/about/ProgramInfo.h"

class QLabel;

namespace pinscope::ui {

// The lines the dialog shows, in order: build facts first, then the libraries (the engine's, asked
// now, and the window's own).
std::vector<NamedVersion> about_lines();

// The same as plain text, "name: version" a line, with the version line first.
QString about_text(const std::vector<NamedVersion>& lines);

class AboutDialog : public QDialog {
    Q_OBJECT

public:
    explicit AboutDialog(QWidget* parent = nullptr);
    // The table's text, for tests.
    QString table_text() const;

private:
    QLabel* table_ = nullptr;
    std::vector<NamedVersion> lines_;
};

}  // namespace pinscope::ui
