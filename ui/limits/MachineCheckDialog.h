// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Help > Check this machine: `pinscope-cli doctor`'s checks (engine/doctor, the same code) for the
// configuration shown, one row each: the verdict as a word on its colour, what was checked, what
// was found and what it means for pinning. "Copy" puts the doctor's text on the clipboard.
#include <QDialog>

#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/device/CudaDeviceList.h"
#include "engine/doctor/MachineCheck.h"

class QTextBrowser;

namespace pinscope::ui {

class MachineCheckDialog : public QDialog {
    Q_OBJECT

public:
    // Runs the checks for `config` on the machine under `root` ("/": this one).
    MachineCheckDialog(const LoaderConfig& config, const CudaDeviceList& cuda, QWidget* parent = nullptr,
                       std::string root = "/");
    const std::vector<CheckLine>& lines() const { return lines_; }
    // The doctor's text, as Copy puts it on the clipboard.
    QString plain_text() const;
    // The table as shown (tests).
    QString shown_html() const;

private:
    void check();

    LoaderConfig config_;
    CudaDeviceList cuda_;
    std::string root_;
    std::vector<CheckLine> lines_;
    QTextBrowser* table_;
};

}  // namespace pinscope::ui
