// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/DeviceChoices.h"

#include "engine/config/ConfigValidation.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/ProfileTrust.h"

namespace pinscope::ui {

const CudaDeviceList& cuda_devices() {
    static const CudaDeviceList list = list_cuda_devices();  // asks the driver once
    return list;
}

namespace {

bool engine_accepts(const std::string& device) {
    LoaderConfig config;
    config.device = device;
    for (const auto& issue : find_config_issues(config))
        if (issue.field == "device") return false;
    return true;
}

}  // namespace

std::vector<DeviceOption> device_choices() {
    std::vector<DeviceOption> choices;
    const std::string fallback = LoaderConfig{}.device;
    if (LoaderConfig{}.device_choice().kind == DeviceKind::Auto) {
        choices.push_back({QStringLiteral("%1 · GPU, else emulated").arg(QString::fromStdString(fallback)),
                           fallback, QStringLiteral("The engine picks the first CUDA GPU, or the emulated device "
                                                    "and says why")});
    }
    const auto& cuda = cuda_devices();
    for (std::size_t i = 0; i < cuda.devices.size(); ++i) {
        const DeviceInfo& info = cuda.devices[i];
        choices.push_back({QStringLiteral("cuda:%1 · %2").arg(i).arg(QString::fromStdString(info.name)),
                           std::string(to_string(DeviceKind::Cuda)) + ":" + std::to_string(i),
                           QString::fromStdString(info.detail)});
    }
    for (const std::string& name : builtin_profile_names()) {
        QString description;
        QString trust;
        try {
            const HardwareProfile profile = load_profile(name);
            description = QString::fromStdString(profile.description);
            trust = QString::fromStdString(trust_summary(profile));
        } catch (const std::exception& e) {
            description = QString::fromStdString(e.what());
        }
        const bool is_default = name == kDefaultProfile;
        choices.push_back({QStringLiteral("emulated · %1").arg(QString::fromStdString(name)),
                           is_default ? std::string(to_string(DeviceKind::Emulated))
                                      : std::string(to_string(DeviceKind::Emulated)) + ":" + name,
                           // A paragraph, so that Qt wraps it: a plain tooltip is one line, and a
                           // profile's trust runs to several hundred characters.
                           QStringLiteral("<p>Emulated device, profile %1 (%2): copies and kernels take the times "
                                          "the profile measured; no GPU is used. %3</p>")
                               .arg(QString::fromStdString(name).toHtmlEscaped(), description.toHtmlEscaped(),
                                    trust.toHtmlEscaped())});
    }
    return choices;
}

std::string default_device() {
    const LoaderConfig defaults;
    if (defaults.device_choice().kind == DeviceKind::Auto && engine_accepts(defaults.device)) return defaults.device;
    return cuda_devices().devices.empty() ? std::string(to_string(DeviceKind::Emulated)) : std::string("cuda:0");
}

bool runs_on_cuda(const LoaderConfig& config) {
    return config.is_cuda() || (config.device_choice().kind == DeviceKind::Auto && !cuda_devices().devices.empty());
}

QString why_no_gpu() {
    const auto& cuda = cuda_devices();
    return cuda.devices.empty() ? QString::fromStdString(cuda.why_none) : QString();
}

}  // namespace pinscope::ui
