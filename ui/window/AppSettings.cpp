// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/AppSettings.h"

#include <QDir>
#include <QSettings>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"

namespace pinscope::ui {

namespace {
const QString kConfig = QStringLiteral("run/config");
const QString kFolder = QStringLiteral("export/folder");
const QString kScale = QStringLiteral("export/scale");
const QString kLiveWindow = QStringLiteral("view/live_window_s");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitter = QStringLiteral("window/splitter");
}  // namespace

AppSettings::AppSettings(bool persistent) {
    if (persistent) settings_ = std::make_unique<QSettings>();
}

AppSettings::~AppSettings() = default;

std::optional<LoaderConfig> AppSettings::last_config() const {
    if (!settings_) return std::nullopt;
    const QString text = settings_->value(kConfig).toString();
    if (text.isEmpty()) return std::nullopt;
    try {
        LoaderConfig config = config_from_json(nlohmann::json::parse(text.toStdString()));
        if (!find_config_issues(config).empty()) return std::nullopt;  // e.g. a GPU that is gone
        return config;
    } catch (const std::exception&) {
        return std::nullopt;  // written by another version: start from the defaults
    }
}

void AppSettings::set_last_config(const LoaderConfig& config) {
    if (settings_) settings_->setValue(kConfig, QString::fromStdString(to_json(config).dump()));
}

QString AppSettings::last_folder() const {
    if (!folder_.isEmpty()) return folder_;
    return settings_ ? settings_->value(kFolder, QDir::homePath()).toString() : QDir::currentPath();
}

void AppSettings::set_last_folder(const QString& folder) {
    folder_ = folder;
    if (settings_) settings_->setValue(kFolder, folder);
}

double AppSettings::screenshot_scale() const { return settings_ ? settings_->value(kScale, 1.0).toDouble() : scale_; }

void AppSettings::set_screenshot_scale(double scale) {
    scale_ = scale;
    if (settings_) settings_->setValue(kScale, scale);
}

double AppSettings::live_window() const { return settings_ ? settings_->value(kLiveWindow, 0.3).toDouble() : 0.3; }

void AppSettings::set_live_window(double seconds) {
    if (settings_) settings_->setValue(kLiveWindow, seconds);
}

QByteArray AppSettings::window_geometry() const { return settings_ ? settings_->value(kGeometry).toByteArray() : QByteArray(); }
QByteArray AppSettings::window_state() const { return settings_ ? settings_->value(kState).toByteArray() : QByteArray(); }
QByteArray AppSettings::splitter_state() const { return settings_ ? settings_->value(kSplitter).toByteArray() : QByteArray(); }

void AppSettings::save_window(const QByteArray& geometry, const QByteArray& state, const QByteArray& splitter) {
    if (!settings_) return;
    settings_->setValue(kGeometry, geometry);
    settings_->setValue(kState, state);
    settings_->setValue(kSplitter, splitter);
}

void AppSettings::forget_config() {
    if (settings_) settings_->remove(kConfig);
}

}  // namespace pinscope::ui
