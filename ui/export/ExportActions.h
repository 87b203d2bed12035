// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The File menu's exports: screenshots of the window or of one plot, spans and counters as CSV,
// the Chrome trace, the summary. The run's files are written by the engine's own exporters from
// the frames of the run shown, which this object keeps (RunHistory). Dialogs start in the last folder used; every failure is shown in a
// message box. The save_* functions do the work without dialogs and throw on failure.
#include <QObject>
#include <QString>

#include <functional>

#include "ui/adapter/FrameView.h"
#include "ui/model/RunHistory.h"

class QWidget;

namespace pinscope::ui {

class AppSettings;

class ExportActions : public QObject, public FrameView {
    Q_OBJECT

public:
    ExportActions(QWidget& window, AppSettings& settings, std::size_t span_capacity, std::size_t sample_capacity);
    // A frame of the run shown.
    void take(const RunFrame& frame) override { history_.take(frame); }

    void save_screenshot(QWidget& target, const QString& path) const;
    // spans.csv, counters.csv, numa.csv and summary.json into `dir` (created if missing).
    void save_csv(const QString& dir) const;
    void save_chrome_trace(const QString& path) const;
    void save_summary(const QString& path) const;

public slots:
    void screenshot_window();
    void screenshot_plot(QWidget* plot, const QString& name);
    void csv();
    void chrome_trace();
    void summary();

signals:
    void saved(const QString& message);

private:
    QString ask_save_path(const QString& title, const QString& suggested_name, const QString& filter);
    bool ensure_run();
    void report(const QString& what, const std::function<void()>& work);

    QWidget& window_;
    AppSettings& settings_;
    RunHistory history_;
};

}  // namespace pinscope::ui
