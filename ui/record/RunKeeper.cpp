// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/record/RunKeeper.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>

#include "engine/record/RecordingWriter.h"
#include "ui/adapter/RunFeed.h"

namespace pinscope::ui {
namespace {

QString label_of(const RunSummary& summary) {
    const std::size_t segments = summary.segments.size();
    return QStringLiteral("%1 · %2 s · %3 · %4 batches/s")
        .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")))
        .arg(summary.metrics.wall_s, 0, 'f', 1)
        .arg(segments == 1 ? QStringLiteral("1 segment") : QStringLiteral("%1 segments").arg(segments))
        .arg(summary.metrics.batches_per_s, 0, 'f', 1);
}

}  // namespace

RunKeeper::RunKeeper(RunFeed& feed, QString session_folder, QObject* parent) : QObject(parent), feed_(feed) {
    if (session_folder.isEmpty()) session_folder = QDir::tempPath();
    static int windows = 0;  // each window of the process keeps its own
    session_path_ = QDir(session_folder).filePath(
        QStringLiteral("pinscope-session-%1-%2.pinscope").arg(QCoreApplication::applicationPid()).arg(++windows));
    connect(&feed_, &RunFeed::started, this, &RunKeeper::started);
    connect(&feed_, &RunFeed::ended, this, &RunKeeper::ended);
}

RunKeeper::~RunKeeper() {
    feed_.set_recorder(nullptr);
    run_writer_.reset();
    chosen_writer_.reset();
    session_writer_.reset();  // closed before its file goes
    if (session_created_)
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
            QFile::remove(session_path_ + suffix);
}

std::shared_ptr<RecordingWriter> RunKeeper::writer_for(const QString& path) {
    return std::make_shared<RecordingWriter>(QDir::toNativeSeparators(path).toStdString());
}

void RunKeeper::keep_next_run_in(const QString& path) { next_run_writer_ = writer_for(path); }

void RunKeeper::prepare() {
    std::shared_ptr<RecordingWriter> writer;
    if (next_run_writer_) {
        writer = std::move(next_run_writer_);  // for this run only: a moved-from pointer is empty
    } else if (chosen_) {
        if (!chosen_writer_) chosen_writer_ = writer_for(*chosen_);
        writer = chosen_writer_;
    } else {
        if (!session_writer_) {
            // Our own name in the temporary folder: one left by a process of the same number is gone.
            if (!session_created_)
                for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
                    QFile::remove(session_path_ + suffix);
            session_writer_ = writer_for(session_path_);
            session_created_ = true;
        }
        writer = session_writer_;
    }
    run_writer_ = writer;
    feed_.set_recorder(writer);
}

void RunKeeper::record_to(const QString& path) {
    auto writer = writer_for(path);  // throws before anything changes
    chosen_writer_ = std::move(writer);
    chosen_ = path;
}

void RunKeeper::stop_recording() {
    chosen_.reset();
    chosen_writer_.reset();  // a run going on keeps it (run_writer_) until it ends
}

std::optional<QString> RunKeeper::recording_path() const { return chosen_; }

void RunKeeper::started() {
    live_.reset();
    if (!feed_.live() || !run_writer_) return;
    live_ = KeptRun{QString::fromStdString(run_writer_->path()), run_writer_->run_id(), QStringLiteral("running"),
                    run_writer_ == session_writer_};
}

void RunKeeper::ended() {
    if (!feed_.live() || !live_) return;
    live_->label = label_of(feed_.last_frame()->summary);
    kept_.push_back(*live_);
    if (run_writer_ != chosen_writer_ && run_writer_ != session_writer_) run_writer_.reset();  // the switch moved on
    emit keptChanged();
}

}  // namespace pinscope::ui
