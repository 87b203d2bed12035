// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/DeviceBanner.h"

#include <QFileInfo>

#include "engine/device/factory/DeviceFactory.h"
#include "engine/device/HardwareProfile.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

namespace {

QString host_text(HostMode host) {
    return host == HostMode::Modeled ? QStringLiteral("host work modelled from the profile")
                                     : QStringLiteral("host work real (this machine)");
}

QString topology_note(const std::string& xml) {
    if (xml.empty()) return {};
    return QStringLiteral(" · NUMA: loaded topology <b>%1</b>, not this machine")
        .arg(QFileInfo(QString::fromStdString(xml)).fileName().toHtmlEscaped());
}

QString no_gpu_reason() {
    const QString why = why_no_gpu();
    return why.isEmpty() ? QString() : QStringLiteral(" · no real GPU here: %1").arg(why.toHtmlEscaped());
}

}  // namespace

DeviceBanner::DeviceBanner(QWidget* parent) : QLabel(parent) {
    setFont(app_font(10));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setMargin(6);
}

void DeviceBanner::show_text(bool emulated, const QString& text, bool recorded) {
    emulated_ = emulated;
    recorded_ = recorded;
    setStyleSheet(recorded  ? QStringLiteral("QLabel { background: #E4EEF9; color: #17365D; border: 1px solid #A7C4E6; "
                                             "border-radius: 4px; }")
                  : emulated ? QStringLiteral("QLabel { background: #FFF4D6; color: #5C4300; border: 1px solid #F0D68A; "
                                              "border-radius: 4px; }")
                             : QStringLiteral("QLabel { background: #E3F4E1; color: #1E4620; border: 1px solid #A9D8A5; "
                                              "border-radius: 4px; }"));
    setText(text);
}

void DeviceBanner::show_recorded(const RecordedFrom& from, const RunSummary& s) {
    shown_run_.clear();
    topology_xml_ = s.config.topology_xml;
    const DeviceInfo& info = s.device;
    const QString device =
        info.kind == DeviceKind::Cuda
            ? QStringLiteral("real GPU <b>%1</b> (%2)").arg(QString::fromStdString(info.name).toHtmlEscaped(),
                                                           QString::fromStdString(info.detail).toHtmlEscaped())
            : QStringLiteral("emulated device, profile <b>%1</b> (%2)")
                  .arg(QString::fromStdString(info.profile).toHtmlEscaped(), QString::fromStdString(info.name).toHtmlEscaped());
    QString when = QString::fromStdString(from.started_utc);
    when.replace(QLatin1Char('T'), QLatin1Char(' '));
    show_text(info.kind != DeviceKind::Cuda,
              QStringLiteral("<b>Recorded run %1 of %2</b> in %3 · %4 · on %5, %6 UTC · %7%8%9")
                  .arg(from.run)
                  .arg(from.runs)
                  .arg(QFileInfo(QString::fromStdString(from.file)).fileName().toHtmlEscaped(), device,
                       QString::fromStdString(from.host_name).toHtmlEscaped(), when.left(19).toHtmlEscaped(),
                       s.host == HostMode::Modeled ? host_text(s.host) : QStringLiteral("host work real (that machine's)"),
                       topology_note(s.config.topology_xml),
                       from.finished ? QString() : QStringLiteral(" · <b>unfinished</b>: the recording stops before the run's end")),
              true);
}

void DeviceBanner::take(const RunFrame& frame) {
    const RunSummary& s = frame.summary;
    if (frame.recorded) {
        if (frame.first) show_recorded(*frame.recorded, s);
        return;
    }
    const std::string run = std::string(to_string(s.device.kind)) + '\n' + s.device.name + '\n' + s.device.profile + '\n' +
                            s.device.detail + '\n' + to_string(s.host) + '\n' + s.config.topology_xml;
    if (!frame.first && run == shown_run_) return;
    show_running(s.device, s.host, s.config.topology_xml);
    shown_run_ = run;
}

void DeviceBanner::show_running(const DeviceInfo& info, HostMode host, const std::string& topology_xml) {
    shown_run_.clear();
    topology_xml_ = topology_xml;
    if (info.kind == DeviceKind::Cuda) {
        show_text(false, QStringLiteral("<b>Real GPU:</b> %1 · %2 · %3")
                             .arg(QString::fromStdString(info.name).toHtmlEscaped(),
                                  QString::fromStdString(info.detail).toHtmlEscaped(), host_text(host)));
        return;
    }
    show_text(true, QStringLiteral("<b>Emulated device</b> (no GPU is used): profile <b>%1</b>, %2 · %3%4%5")
                        .arg(QString::fromStdString(info.profile).toHtmlEscaped(),
                             QString::fromStdString(info.name).toHtmlEscaped(), host_text(host), topology_note(topology_xml),
                             no_gpu_reason()));
}

void DeviceBanner::show_selected(const LoaderConfig& config) {
    shown_run_.clear();
    topology_xml_ = config.topology_xml;
    const QString device = QString::fromStdString(config.device).toHtmlEscaped();
    if (config.is_cuda()) {
        show_text(false, QStringLiteral("<b>Real GPU</b> selected (%1) · press Start").arg(device));
        return;
    }
    if (config.device_choice().kind != DeviceKind::Emulated) {
        show_text(true, QStringLiteral("Device <b>%1</b>: a real GPU if the engine finds one, else the emulated device "
                                       "· press Start")
                            .arg(device));
        return;
    }
    const std::string name = emulated_profile(config.device);
    QString description;
    try {
        description = QString::fromStdString(load_profile(name).description).toHtmlEscaped();
    } catch (const std::exception& e) {
        description = QString::fromStdString(e.what()).toHtmlEscaped();
    }
    show_text(true, QStringLiteral("<b>Emulated device</b> (no GPU is used): profile <b>%1</b>, %2 · %3%4%5 · press Start")
                        .arg(QString::fromStdString(name).toHtmlEscaped(), description,
                             host_text(config.effective_host()), topology_note(config.topology_xml), no_gpu_reason()));
}

}  // namespace pinscope::ui
