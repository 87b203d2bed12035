// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the application remembers between sessions (QSettings): the window's geometry and layout,
// the last configuration, the last export folder, the screenshot scale and the timeline's live
// window. A headless run uses a transient instance that neither reads nor writes anything.
#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

#include "engine/config/LoaderConfig.h"

class QSettings;

namespace pinscope::ui {

class AppSettings {
public:
    // persistent = false: defaults in, nothing out.
    explicit AppSettings(bool persistent);
    ~AppSettings();

    std::optional<LoaderConfig> last_config() const;
    void set_last_config(const LoaderConfig& config);
    QString last_folder() const;
    void set_last_folder(const QString& folder);
    double screenshot_scale() const;
    void set_screenshot_scale(double scale);
    double live_window() const;
    void set_live_window(double seconds);
    QByteArray window_geometry() const;
    QByteArray window_state() const;
    QByteArray splitter_state() const;
    void save_window(const QByteArray& geometry, const QByteArray& state, const QByteArray& splitter);
    // Forgets the configuration (the window's layout stays).
    void forget_config();

private:
    std::unique_ptr<QSettings> settings_;  // null when not persistent
    QString folder_;
    double scale_ = 1;
};

}  // namespace pinscope::ui
