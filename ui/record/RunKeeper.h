// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the window's live runs are kept: every live run streams into a recording as it runs (as
// pinscope-cli run --record does), so that a run stopped and followed by another stays whole and
// can be shown again or saved, in bounded memory. The recording is the file the user chose
// ("Record runs to FILE"), else this session's own file in the temporary folder, removed when the
// window closes. GUI thread only.
#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/runner/RunRecord.h"

namespace pinscope {
class RecordingWriter;
}

namespace pinscope::ui {

class RunFeed;

// A live run of this session, as it is kept.
struct KeptRun {
    QString path;            // the recording holding it
    std::int64_t run = 0;    // its number there
    QString label;           // "14:22:01 · 12.3 s · 3 segments · 412 batches/s"
    bool in_session_file = false;
};

class RunKeeper : public QObject {
    Q_OBJECT

public:
    // `session_folder`: where this session's recording goes (empty: the temporary folder).
    explicit RunKeeper(RunFeed& feed, QString session_folder = {}, QObject* parent = nullptr);
    ~RunKeeper() override;  // closes the recordings, removes the session's own file

    // Before a live run starts: the recording it goes into is open. Throws std::runtime_error
    // (RecordingError for a chosen file that is not a recording it can append to).
    void prepare();
    // The next live run only goes to `path` (a lesson's recording), created if missing or appended
    // to, in place of the switch's file; throws as record_to does, and then nothing changes.
    void keep_next_run_in(const QString& path);
    // The recording switch: live runs from the next on go to `path`, created if missing or appended
    // to. Throws RecordingError when it is a file but not a pinscope recording this version writes
    // (left untouched), std::runtime_error when it cannot be written; the switch stays as it was.
    void record_to(const QString& path);
    // Back to the session's own file.
    void stop_recording();
    // The chosen file while the switch is on.
    std::optional<QString> recording_path() const;
    QString session_path() const { return session_path_; }

    // The live run shown now (running or ended), where it is being kept; none before the first.
    std::optional<KeptRun> live_run() const { return live_; }
    // The live runs of this session that ended, oldest first.
    const std::vector<KeptRun>& kept() const { return kept_; }

signals:
    void keptChanged();

private:
    void started();
    void ended();
    // The writer for `path`: the open one when it is that file, else a new one.
    std::shared_ptr<RecordingWriter> writer_for(const QString& path);

    RunFeed& feed_;
    QString session_path_;
    bool session_created_ = false;
    std::optional<QString> chosen_;
    std::shared_ptr<RecordingWriter> session_writer_;
    std::shared_ptr<RecordingWriter> chosen_writer_;
    std::shared_ptr<RecordingWriter> next_run_writer_;  // keep_next_run_in's, for one run
    std::shared_ptr<RecordingWriter> run_writer_;  // the one the live run shown goes to
    std::optional<KeptRun> live_;
    std::vector<KeptRun> kept_;
};

}  // namespace pinscope::ui
