// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > Compare with...: which two recorded runs to compare. Each side is a recording and one of
// its runs (a file with several lists them all); A starts as the run the window shows, when it
// shows a recorded one, and B as another run of the same file.
#include <QDialog>

#include <array>
#include <optional>

#include "engine/compare/FrameComparison.h"
#include "engine/record/RunReference.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace pinscope::ui {

class CompareDialog : public QDialog {
    Q_OBJECT

public:
    // `shown`: the recorded run the window shows, if any; `folder`: where Browse starts.
    CompareDialog(const std::optional<RunReference>& shown, const QString& folder, QWidget* parent = nullptr);

    // The run chosen for a side; its `run` is 0 when none is chosen.
    RunReference chosen(RunSide side) const;
    // Puts `path` in the side's file field and lists its runs (its last chosen); false, with the
    // reason shown beside it, when it is not a recording with runs.
    bool set_file(RunSide side, const QString& path);
    // Chooses the side's run by number; false when its file has no such run.
    bool set_run(RunSide side, std::int64_t run);
    // Why a side cannot be compared yet; empty when it can.
    QString problem(RunSide side) const;
    QString folder() const { return folder_; }

private:
    struct Side {
        QLineEdit* path = nullptr;
        QComboBox* runs = nullptr;
        QLabel* problem = nullptr;
    };
    Side& side(RunSide which) { return sides_[which == RunSide::A ? 0 : 1]; }
    const Side& side(RunSide which) const { return sides_[which == RunSide::A ? 0 : 1]; }
    void browse(RunSide which);
    void update_ok();

    std::array<Side, 2> sides_;
    std::optional<RunReference> shown_;
    QString folder_;
    QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace pinscope::ui
